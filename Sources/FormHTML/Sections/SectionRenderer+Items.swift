import FormModel

extension SectionRenderer {
    /// A multivalued section's items, each posting under the `multivaluedTag` in order, with Remove and
    /// Move buttons that start `hidden`: they need the browser script, which reveals them. With no
    /// script, "Add another" still works: it is a submit button, and the server answers with one more item.
    /// A section that allows insert also carries a pristine item in a `<template>` (HTML §4.12.3: inert,
    /// never submitted, not in the accessibility tree), which the script copies for "Add another": a
    /// copy of a shown item would carry its state, such as a refused value's `type="text"`.
    func writeItems(
        _ multivalued: SectionPlan.Multivalued, of plan: SectionPlan, state: PageState, errors: PageErrors,
        into writer: inout HTMLWriter
    ) {
        let items = state.items[plan.index] ?? multivalued.defaultItems
        let disabled = formDisabled || (plan.rows.first.map { state.rowDisabled.at($0) } ?? false)
        writer.markup("<div class=\"fw-items\">\n")
        for (position, value) in items.enumerated() {
            let field = itemField(
                multivalued, position: position, values: [value], disabled: disabled,
                errors: errors.item[PageErrors.ItemKey(section: plan.index, position: position)] ?? [],
                autofocus: state.focus == .item(section: plan.index, position: position))
            writeItem(field, options: multivalued.options, disabled: disabled, into: &writer)
        }
        writer.markup("</div>\n")
        if !formDisabled, multivalued.options.contains(.insert) {
            // Drawn as the item "Add another" would make now; the script renumbers every copy it inserts.
            let field = itemField(multivalued, position: items.count, values: [], disabled: false, errors: [])
            writer.markup("<template class=\"fw-item-template\">")
            writeItem(field, options: multivalued.options, disabled: false, into: &writer)
            writer.markup("</template>\n")
        }
        if drawsAddButton(plan) {
            // `formnovalidate`: asking for another item is not a submission to check. Drawn hidden when
            // the list is full or disabled: the script shows it once an item is removed or the list is
            // enabled, as it hides it when the list fills up.
            writer.markup("<button type=\"submit\" class=\"fw-add\"")
            writer.attribute("name", FieldNames.addItem)
            writer.attribute("value", multivalued.tag)
            writer.markup(" formnovalidate")
            writer.flag("hidden", !showsAddButton(plan, state: state))
            writer.lang(fields.texts.lang("addAnother"))
            writer.markup(">")
            writer.text(fields.texts.addAnother)
            writer.markup("</button>\n")
        }
    }

    /// Whether `plan` has an "Add another" button at all: a list that allows insert, in a form that is
    /// not read-only.
    func drawsAddButton(_ plan: SectionPlan) -> Bool {
        guard let multivalued = plan.multivalued else { return false }
        return !formDisabled && multivalued.options.contains(.insert)
    }

    /// Whether `plan`'s "Add another" button shows in `state`: not when the list is full or disabled.
    func showsAddButton(_ plan: SectionPlan, state: PageState) -> Bool {
        guard drawsAddButton(plan), let multivalued = plan.multivalued else { return false }
        let count = state.items[plan.index]?.count ?? multivalued.defaultItems.count
        let disabled = plan.rows.first.map { state.rowDisabled.at($0) } ?? false
        return !disabled && count < multivalued.cap
    }

    /// Item `position` (from 0): control `base-position`, label "Title position+1".
    private func itemField(
        _ multivalued: SectionPlan.Multivalued, position: Int, values: [String], disabled: Bool, errors: [PageError],
        autofocus: Bool = false
    ) -> FieldView {
        FieldView(
            plan: multivalued.item, id: "\(multivalued.item.id)-\(position)", name: multivalued.tag,
            labelSuffix: " \(position + 1)", values: values, disabled: disabled, required: false, errors: errors,
            autofocus: autofocus, itemName: multivalued.itemName(at: position))
    }

    private func writeItem(
        _ field: FieldView, options: Section.MultivaluedOptions, disabled: Bool, into writer: inout HTMLWriter
    ) {
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

    /// " Tag 2", for screen readers only: every item has the same buttons, and "Remove" alone does not
    /// say which item it removes (WCAG 2.4.6). The script renumbers it with the label when items move.
    private func writeItemName(_ field: FieldView, into writer: inout HTMLWriter) {
        writer.markup("<span class=\"fw-visually-hidden\"> ")
        writer.html(field.plan.label)
        if let suffix = field.labelSuffix { writer.text(suffix) }
        writer.markup("</span>")
    }
}
