import FormModel

/// Everything constant about one section's markup, escaped once when the page is built.
struct SectionPlan: Sendable {
    /// What a multivalued section adds to a section.
    struct Multivalued: Sendable {
        /// The name every item posts under.
        let tag: String
        /// The plan every item is drawn from; its id is the base of the items' ids (`base-0`, `base-1`…).
        let item: RowPlan
        /// The items shown when `PageState.items` has none for the section: its descriptor rows' values.
        let defaultItems: [String]
        let options: Section.MultivaluedOptions
        /// The most items the server accepts; "Add another" is hidden at this count.
        let cap: Int
        /// What the items are called: `CompiledSection.itemTitle`.
        let itemTitle: String

        /// The name of the item at `position` (from 0) as its label shows it and its errors name it:
        /// `CompiledSection.itemName(at:)`.
        func itemName(at position: Int) -> String { "\(itemTitle) \(position + 1)" }
    }

    let index: Int
    let id: String
    let legend: HTML?
    let footer: HTML?
    /// Its rows' indexes in `CompiledForm.rows`.
    let rows: Range<Int>
    let multivalued: Multivalued?

    /// The footer paragraph's id.
    var footerID: String { id + "-footer" }

    init(_ compiled: CompiledSection, ids: inout FieldIDs, texts: PageTexts, timeZone: String) {
        let section = compiled.section
        index = compiled.index
        id = ids.make(section.tag ?? "section_\(compiled.index)")
        legend = section.title.map(HTML.init(text:))
        footer = section.footer.map(HTML.init(text:))
        rows = compiled.rows
        if let tag = section.multivaluedTag, let item = compiled.item {
            // An item is one control that always posts one value; a password being chosen asks for a new one.
            let control = NewPasswords.isNew(item) ? NewPasswords.control(for: item.row.type) : nil
            multivalued = Multivalued(
                tag: tag,
                item: RowPlan(
                    row: item.row, id: ids.make(tag), name: tag, required: .constant(false), texts: texts,
                    timeZone: timeZone, control: control ?? Control(item: item.row.type), label: compiled.itemTitle),
                defaultItems: section.rows.map { ValueTexts.itemText($0.value) },
                options: section.multivaluedOptions, cap: section.itemCap, itemTitle: compiled.itemTitle)
        } else {
            multivalued = nil
        }
    }
}
