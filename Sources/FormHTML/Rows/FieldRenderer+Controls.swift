import FormModel

extension FieldRenderer {
    /// The control of a row labelled by a `<label>`.
    func writeControl(_ field: FieldView, into writer: inout HTMLWriter) {
        let plan = field.plan
        let value = field.values.first
        switch plan.control {
        case .input(let type, let autocomplete, let inputMode, let defaultStep):
            writeInput(
                field, type: type, autocomplete: autocomplete, inputMode: inputMode, defaultStep: defaultStep,
                into: &writer)
        case .stepper:
            writeInput(field, type: "number", autocomplete: nil, inputMode: "decimal", defaultStep: "1", into: &writer)
            writeStepButtons(field, into: &writer)
        case .textArea:
            writer.markup("<textarea")
            writeIdentity(field, into: &writer)
            writer.markup(" rows=\"4\"")
            if let placeholder = plan.placeholder { writer.attribute("placeholder", escaped: placeholder) }
            writeAutocomplete(plan, implied: nil, into: &writer)
            if let maxLength = plan.row.maxLength { writer.attribute("maxlength", String(maxLength)) }
            writeState(field, requirable: true, into: &writer)
            // A newline right after <textarea> is dropped by the parser (HTML spec §13.2.6.4.7, "A start
            // tag whose tag name is textarea"), so one is always written: a value's own leading newline survives.
            writer.markup(">\n")
            if let value { writer.text(value) }
            writer.markup("</textarea>\n")
        case .select(let inline):
            writeSelect(field, inline: inline, into: &writer)
        case .search:
            writeSearch(field, into: &writer)
        case .yesNo:
            writeYesNo(field, into: &writer)
        case .range:
            // A range's `value`, if given, must be a number (HTML §4.10.5.1.13): an empty one is left out.
            let value = value.flatMap { $0.isEmpty ? nil : $0 }
            let refused = value.map { !TypedValues.fits($0, inputType: "range") } ?? false
            writer.markup(refused ? "<input type=\"text\" inputmode=\"decimal\"" : "<input type=\"range\"")
            writeIdentity(field, into: &writer)
            if let value { writer.attribute("value", value) }
            writeAutocomplete(plan, implied: nil, into: &writer)
            if !refused { writeBounds(plan, defaultStep: nil, into: &writer) }
            // `required` does not apply to range inputs (HTML spec §4.10.5.1.13 "Range state").
            writeState(field, requirable: false, into: &writer)
            writer.markup(">\n<output class=\"fw-output\"")
            writer.attribute("for", field.id)
            writer.attribute("id", field.id + "-output")
            writer.markup(">")
            // The output says what the slider holds, and posts: with no value the browser's default; with
            // one, that value as the browser sanitizes it (clamped to min and max, snapped to the step).
            if let value {
                writer.text(
                    refused
                        ? value
                        : RangeValue.sanitizedText(value, min: plan.row.min, max: plan.row.max, step: plan.row.step)
                            ?? value)
            } else if let shown = plan.rangeDefault {
                writer.text(shown)
            }
            writer.markup("</output>\n")
        case .duration:
            writer.markup("<input type=\"text\"")
            writeIdentity(field, into: &writer)
            if let value { writer.attribute("value", value) }
            if let placeholder = plan.placeholder { writer.attribute("placeholder", escaped: placeholder) }
            writer.markup(" inputmode=\"numeric\" pattern=\"[0-9]+:[0-5][0-9]:[0-5][0-9]\"")
            writeAutocomplete(plan, implied: "off", into: &writer)
            writeState(field, requirable: true, into: &writer)
            writer.markup(">\n")
        case .file:
            // A file input never carries a value: browsers ignore one, and the file stays with its post.
            writer.markup("<input type=\"file\"")
            writeIdentity(field, into: &writer)
            if let accept = plan.accept { writer.attribute("accept", escaped: accept) }
            if let limit = plan.uploadLimit {
                writer.attribute("data-fw-max-bytes", limit.bytes)
                writer.attribute("data-fw-too-large", escaped: limit.message)
            }
            // A held file answers `required`: the reader need not choose it again.
            writeState(field, requirable: field.held == nil, into: &writer)
            writer.markup(">\n")
            if let held = field.held, let name = field.name { writeHeld(held, name: name, field, into: &writer) }
        case .output:
            writer.markup("<output class=\"fw-output\"")
            writer.attribute("id", field.id)
            writer.markup(">")
            if let value { writer.text(value) }
            writer.markup("</output>\n")
        case .checkbox, .radios, .segmented, .checkboxes, .paragraph, .action:
            // Written by `write(_:into:)`, which labels them differently.
            break
        }
    }

    /// `autocomplete`: the descriptor's when it gives one, else the one the control implies, if any.
    func writeAutocomplete(_ plan: RowPlan, implied: StaticString?, into writer: inout HTMLWriter) {
        if let own = plan.autocomplete {
            writer.attribute("autocomplete", escaped: own)
        } else if let implied {
            writer.attribute("autocomplete", literal: implied)
        }
    }

    func writeBounds(_ plan: RowPlan, defaultStep: StaticString?, into writer: inout HTMLWriter) {
        if let min = plan.min { writer.attribute("min", escaped: min) }
        if let max = plan.max { writer.attribute("max", escaped: max) }
        if let step = plan.step {
            writer.attribute("step", escaped: step)
        } else if let defaultStep {
            writer.attribute("step", literal: defaultStep)
        }
    }
}

extension FieldRenderer {
    /// The reference of a file the server holds, posted back as `_held.<name>`, and a paragraph naming
    /// it, which the file input's `aria-describedby` lists.
    func writeHeld(_ held: PageState.HeldFile, name: String, _ field: FieldView, into writer: inout HTMLWriter) {
        if let reference = held.reference {
            writer.markup("<input type=\"hidden\"")
            writer.attribute("name", "_held." + name)
            writer.attribute("value", reference)
            writer.markup(">\n")
        }
        writer.markup("<p class=\"fw-held\"")
        writer.attribute("id", field.heldID)
        writer.markup(">")
        writer.text(
            texts.heldFile.replacing("{name}", with: held.filename).replacing(
                "{size}", with: ByteCount.text(held.size)))
        writer.markup("</p>\n")
    }
}

/// A size as a page shows it: `512 bytes`, `84 KB`, `1.2 MB`.
enum ByteCount {
    static func text(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) bytes" }
        if bytes < 1024 * 1024 { return "\((bytes + 512) / 1024) KB" }
        let tenths = (bytes * 10 + 512 * 1024) / (1024 * 1024)
        return "\(tenths / 10).\(tenths % 10) MB"
    }
}
