import FormModel
import Foundation

extension FieldRenderer {
    /// An `<input>` of `type`, with the `autocomplete`, `inputmode` and step the control implies.
    func writeInput(
        _ field: FieldView, type: StaticString, autocomplete: StaticString?, inputMode: StaticString?,
        defaultStep: StaticString?, into writer: inout HTMLWriter
    ) {
        let plan = field.plan
        let value = field.values.first
        // See TypedValues: a refused entry stays visible in a text input, which takes no bounds. An
        // empty one is no entry (HTML allows an empty `value` on every typed input but a range): the
        // input keeps its type, as the empty item "Add another" appends must.
        let refused = value.map { !$0.isEmpty && !TypedValues.fits($0, inputType: type) } ?? false
        writer.markup("<input type=\"")
        writer.markup(refused ? "text" : type)
        writer.markup("\"")
        writeIdentity(field, into: &writer)
        if let value { writer.attribute("value", value) }
        if let placeholder = plan.placeholder { writer.attribute("placeholder", escaped: placeholder) }
        writeAutocomplete(plan, implied: autocomplete, into: &writer)
        if let inputMode { writer.attribute("inputmode", literal: inputMode) }
        if !refused { writeBounds(plan, defaultStep: defaultStep, into: &writer) }
        if let maxLength = plan.row.maxLength { writer.attribute("maxlength", String(maxLength)) }
        writeState(field, requirable: true, into: &writer)
        writer.markup(">\n")
    }

    /// A step counter's − and + buttons, `hidden` until the page script shows them and gives them their
    /// job (`stepDown`, `stepUp`): without a script they could do nothing, and the browser's own number
    /// input steps. Named for their row, as a screen reader meets them away from the label.
    func writeStepButtons(_ field: FieldView, into writer: inout HTMLWriter) {
        guard let labels = field.plan.stepLabels else { return }
        for (step, label, symbol) in [
            ("-1" as StaticString, labels.decrease, "−" as StaticString), ("1", labels.increase, "+"),
        ] {
            writer.markup("<button type=\"button\" class=\"fw-step\" hidden")
            writer.attribute("data-fw-step", literal: step)
            writer.attribute("aria-controls", field.id)
            writer.attribute("aria-label", escaped: label)
            writer.flag("disabled", field.disabled)
            writer.markup(">")
            writer.markup(symbol)
            writer.markup("</button>\n")
        }
    }
}
