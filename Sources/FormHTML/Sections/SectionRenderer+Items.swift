import FormModel

extension SectionRenderer {
    /// A multivalued section's items, each posting under the `multivaluedTag` in order, with Remove and
    /// Move buttons that start `hidden`: they need the browser script, which reveals them. With no
    /// script, "Add another" still works: it is a submit button, and the server answers with one more item.
    func writeItems(
        _ multivalued: SectionPlan.Multivalued, of plan: SectionPlan, state: PageState, errors: PageErrors,
        into writer: inout HTMLWriter
    ) {
        let items = state.items[plan.index] ?? multivalued.defaultItems
        let disabled = formDisabled || (plan.rows.first.map { state.rowDisabled.at($0) } ?? false)
        let options = multivalued.options
        writer.markup("<div class=\"fw-items\">\n")
        for (position, value) in items.enumerated() {
            let field = FieldView(
                plan: multivalued.item, id: "\(multivalued.item.id)-\(position)", name: multivalued.tag,
                labelSuffix: " \(position + 1)", values: [value], disabled: disabled, required: false,
                errors: errors.item[PageErrors.ItemKey(section: plan.index, position: position)] ?? [],
                autofocus: state.focus == .item(section: plan.index, position: position))
            writer.markup("<div class=\"fw-item\" data-fw-item>\n")
            fields.write(field, into: &writer)
            if !disabled, options.contains(.delete) || options.contains(.reorder) {
                writer.markup("<div class=\"fw-item-actions\">")
                if options.contains(.delete) {
                    writer.markup("<button type=\"button\" data-fw-action=\"remove\" hidden>")
                    writer.text(fields.texts.remove, lang: fields.texts.lang("remove"))
                    writeItemName(field, into: &writer)
                    writer.markup("</button>")
                }
                if options.contains(.reorder) {
                    writer.markup("<button type=\"button\" data-fw-action=\"up\" hidden>")
                    writer.text(fields.texts.moveUp, lang: fields.texts.lang("moveUp"))
                    writeItemName(field, into: &writer)
                    writer.markup("</button><button type=\"button\" data-fw-action=\"down\" hidden>")
                    writer.text(fields.texts.moveDown, lang: fields.texts.lang("moveDown"))
                    writeItemName(field, into: &writer)
                    writer.markup("</button>")
                }
                writer.markup("</div>\n")
            }
            writer.markup("</div>\n")
        }
        writer.markup("</div>\n")
        if showsAddButton(plan, state: state) {
            // `formnovalidate`: asking for another item is not a submission to check.
            writer.markup("<button type=\"submit\" class=\"fw-add\"")
            writer.attribute("name", FieldNames.addItem)
            writer.attribute("value", multivalued.tag)
            writer.markup(" formnovalidate")
            writer.lang(fields.texts.lang("addAnother"))
            writer.markup(">")
            writer.text(fields.texts.addAnother)
            writer.markup("</button>\n")
        }
    }

    /// Whether `plan` shows an "Add another" button in `state`.
    func showsAddButton(_ plan: SectionPlan, state: PageState) -> Bool {
        guard let multivalued = plan.multivalued, !formDisabled, multivalued.options.contains(.insert) else {
            return false
        }
        let count = state.items[plan.index]?.count ?? multivalued.defaultItems.count
        let disabled = plan.rows.first.map { state.rowDisabled.at($0) } ?? false
        return !disabled && count < multivalued.cap
    }

    /// " Tag 2", for screen readers only: every item has the same buttons, and "Remove" alone does not
    /// say which item it removes (WCAG 2.4.6).
    private func writeItemName(_ field: FieldView, into writer: inout HTMLWriter) {
        writer.markup("<span class=\"fw-visually-hidden\"> ")
        writer.html(field.plan.label)
        if let suffix = field.labelSuffix { writer.text(suffix) }
        writer.markup("</span>")
    }
}
