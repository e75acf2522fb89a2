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
        // Every item sent comes back on a re-rendered page, over the cap too: the person removes the
        // extra ones; dropping them silently would lose input. Only the capped ones are judged.
        entered = raw.compactMap(\.enteredText)
        let cap = section.maxRows ?? Section.defaultMaxRows
        if raw.count > cap {
            overCap = cap
            raw = Array(raw.prefix(cap))
        }
        for (position, value) in raw.enumerated() {
            switch decoder.decode(value, as: item.type.valueKind, for: item) {
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
