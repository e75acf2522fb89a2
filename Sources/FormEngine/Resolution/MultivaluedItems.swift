import FormModel

/// The items sent for one multivalued section, decoded by its item row, in posted order and capped
/// (DESIGN.md, server-side rule 9). Empty items are dropped, as XLForm collects only non-nil values.
struct MultivaluedItems: Sendable {
    /// The decoded values of the items kept, in order.
    var values: [FormValue] = []
    /// Per value: its position in what was sent (errors name `tag[position]`).
    var positions: [Int] = []
    /// Per kept item: its position in what was sent, and its decoding problem if any.
    var problems: [(position: Int, problem: Problem)] = []
    /// The texts sent, for a re-rendered page (all of them, over the cap too).
    var entered: [String] = []
    /// Whether more items were sent than the section accepts; the extra ones are ignored.
    var overCap: Int?

    init(sent: [RawValue], isJSON: Bool, item: Row, section: Section, decoder: FieldDecoder) {
        var raw = sent
        // JSON sends one list under the multivalued tag; a form post repeats the name.
        if isJSON, sent.count == 1, let list = sent[0].listItems { raw = list }
        // Without `insert` a list cannot grow past the rows the descriptor gives it.
        let limit = section.maxRows ?? Section.defaultMaxRows
        let cap = section.multivaluedOptions.contains(.insert) ? limit : min(limit, max(1, section.rows.count))
        if raw.count > cap {
            overCap = cap
            raw = Array(raw.prefix(cap))
        }
        // The page shows what is judged, up to the cap (with the error saying so): echoing every item
        // of a 1 MiB post would answer with a hundred times as many bytes. Passwords never come back.
        entered = item.type == .password ? [] : raw.compactMap(\.enteredText)
        for (position, value) in raw.enumerated() {
            switch decoder.decode(
                value, as: item.type.valueKind, options: item.options, keepsBlank: item.type == .password)
            {
            case .success(let decoded?):
                values.append(decoded)
                positions.append(position)
            case .success(nil): continue
            case .failure(let problem): problems.append((position, problem))
            }
        }
    }

    /// The items of a fresh page: the section's descriptor rows' values.
    init(defaults section: Section) {
        values = section.rows.compactMap(\.value)
        positions = Array(values.indices)
        entered = values.map(\.description)
    }
}
