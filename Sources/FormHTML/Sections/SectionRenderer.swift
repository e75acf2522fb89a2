import FormModel
import FormPredicate

/// Writes sections: one `<fieldset>` each, its title as `<legend>` and its footer as help the
/// fieldset is described by; a multivalued section writes its items and their buttons.
struct SectionRenderer: Sendable {
    let fields: FieldRenderer
    let rows: [RowPlan]
    /// The whole form is read-only: no buttons that change it.
    let formDisabled: Bool
    /// The rows that begin and end a line of the layout (`Layout.lines`): the rows between share it on
    /// a wide screen, and stack on a narrow one (`.fw-line` in forms.css).
    var lines: (starts: Set<Int>, ends: Set<Int>) = ([], [])

    func write(_ plan: SectionPlan, state: PageState, errors: PageErrors, into writer: inout HTMLWriter) {
        writer.markup("<fieldset class=\"fw-section\"")
        writer.attribute("id", plan.id)
        writer.attribute("data-fw-section", String(plan.index))
        if let multivalued = plan.multivalued { writer.attribute("data-fw-multivalued", multivalued.tag) }
        let sectionErrors = errors.section[plan.index] ?? []
        let errorID = plan.id + "-error"
        let describedBy = [plan.footer != nil ? plan.footerID : nil, sectionErrors.isEmpty ? nil : errorID]
            .compactMap { $0 }
        if !describedBy.isEmpty { writer.attribute("aria-describedby", describedBy.joined(separator: " ")) }
        writer.flag("hidden", state.sectionHidden.at(plan.index) || showsNoRow(plan, state: state))
        // A fieldset takes focus only with a tabindex; -1 keeps it out of the tab order.
        if state.focus == .section(plan.index) { writer.markup(" tabindex=\"-1\" autofocus") }
        writer.markup(">\n")
        if let legend = plan.legend {
            writer.markup("<legend>")
            writer.html(legend)
            writer.markup("</legend>\n")
        }
        fields.writeErrors(sectionErrors, id: errorID, into: &writer)
        if let multivalued = plan.multivalued {
            writeItems(multivalued, of: plan, state: state, errors: errors, into: &writer)
        } else {
            for index in plan.rows {
                if lines.starts.contains(index) { writer.markup("<div class=\"fw-line\">\n") }
                writeRow(rows[index], index: index, state: state, errors: errors, into: &writer)
                if lines.ends.contains(index) { writer.markup("</div>\n") }
            }
        }
        if let footer = plan.footer {
            writer.markup("<p class=\"fw-help\"")
            writer.attribute("id", plan.footerID)
            writer.markup(">")
            writer.html(footer)
            writer.markup("</p>\n")
        }
        writer.markup("</fieldset>\n")
    }

    /// Whether every row of `plan` is hidden: the section would draw as an empty card, and as an empty
    /// unnamed group to a screen reader, so it hides with them. Only a drawing matter: conditions still
    /// read the section's own `hidden` (`$section.isHidden`). A multivalued section draws its items and
    /// "Add another", not its rows, and a section without rows is there for its title or footer.
    func showsNoRow(_ plan: SectionPlan, state: PageState) -> Bool {
        plan.multivalued == nil && !plan.rows.isEmpty && plan.rows.allSatisfy { state.rowHidden.at($0) }
    }

    func writeRow(_ plan: RowPlan, index: Int, state: PageState, errors: PageErrors, into writer: inout HTMLWriter) {
        // A password is never echoed: not what was typed, not the descriptor's value (docs/submissions.md, rule 10).
        let values = plan.row.type.isSecret ? [] : state.values[index] ?? plan.defaultValues
        var field = FieldView(
            plan: plan, id: plan.id, name: plan.name, labelSuffix: nil, values: values,
            disabled: formDisabled || state.rowDisabled.at(index), required: state.rowRequired.at(index),
            errors: errors.row[index] ?? [])
        field.held = state.heldFiles[index]
        field.search = state.searches[index]
        writer.markup("<div class=\"fw-row\"")
        writer.attribute("id", plan.id + "-row")
        writer.attribute("data-fw-row", String(index))
        if let server = state.serverValues[index] {
            // The script reads it as JSON: a list of the texts the server's value posts as.
            writer.attribute("data-fw-server", "[" + server.map(JSONString.quoted).joined(separator: ",") + "]")
        }
        writer.flag("hidden", state.rowHidden.at(index))
        writer.markup(">\n")
        fields.write(field, into: &writer)
        writer.markup("</div>\n")
    }
}

extension [Bool] {
    /// The flag at `index`, or false past the end: a state built for another form shows nothing
    /// hidden rather than crashing the server.
    func at(_ index: Int) -> Bool { indices.contains(index) ? self[index] : false }
}
