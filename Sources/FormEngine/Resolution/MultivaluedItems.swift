import FormModel

/// The items sent for one multivalued section, decoded by its item row, in posted order and capped
/// (docs/submissions.md, rule 9). Empty items (rule 6) are dropped before the cap counts, as XLForm
/// collects only non-nil values: a list posted with blank rows keeps every real entry.
struct MultivaluedItems: Sendable {
    /// The decoded values of the items kept, in order.
    var values: [FormValue] = []
    /// Per value: its position in what was sent (errors name `tag[position]`).
    var positions: [Int] = []
    /// Per kept item: its position in what was sent, and its decoding problem if any.
    var problems: [(position: Int, problem: Problem)] = []
    /// The texts sent, for a re-rendered page: those read, up to the first item over the cap.
    var entered: [String] = []
    /// The cap, when more non-empty items were sent than the section accepts; the extra ones are ignored.
    var overCap: Int?
    /// The limit, when more items were sent than are read, empty ones included (`readLimit`); the rest
    /// are ignored.
    var overRead: Int?
    /// The kind of value a JSON client sent in place of the list of items (`{"tags": "swift"}`): the
    /// section's error, as a list sent for a text row is that row's; no item is read from it.
    var wrongType: RawValue.Kind?

    /// How many items are read, empty ones included, for each the section's `maxRows` allows. Dropping
    /// empty items before the cap means a flood of them would otherwise all be decoded and echoed; a
    /// page never posts more items than `maxRows` (it shows no more), so this only stops such floods.
    static let readPerRow = 10

    /// The most items read for `section`, empty ones included: `readPerRow` times its `maxRows`.
    static func readLimit(_ section: Section) -> Int { (section.maxRows ?? Section.defaultMaxRows) * readPerRow }

    init(sent: [RawValue], isJSON: Bool, item: Row, section: Section, decoder: FieldDecoder) {
        var raw = sent
        // JSON sends one list under the multivalued tag (or null for none); a form post repeats the name.
        if isJSON, sent.count == 1 {
            switch sent[0] {
            case .list(let list): raw = list
            case .null: raw = []
            case let other:
                wrongType = other.kind
                raw = []
            }
        }
        // Without `insert` a list cannot grow past the rows the descriptor gives it.
        let cap = section.itemCap
        let readLimit = Self.readLimit(section)
        if raw.count > readLimit { overRead = readLimit }
        let kind = item.type.valueKind
        let keepsBlank = item.type.isSecret
        var kept = 0
        // A date-time shows as the form zone's reading of its instant, as a row's does (`Verdict.entered`).
        var shownDateTimes: [Int: String] = [:]
        // The page shows what is judged, up to the first item over the cap (with the error saying so):
        // echoing every item of a 1 MiB post would answer with a hundred times as many bytes.
        var read = 0
        for (position, value) in raw.prefix(readLimit).enumerated() {
            // A list's boolean item is a choice with a blank option (FormHTML's No/Yes select): blank is no
            // item, as blank text is, and not the `false` an unticked check box means. Without it, an
            // item added by mistake with no script could never be taken out again.
            let decoded =
                kind == .bool && Self.isBlank(value)
                ? .success(nil)
                : item.type.custom?.decode.map { decoder.decode([value], with: $0, type: item.type.name, kind: kind) }
                    ?? decoder.decode(value, as: kind, options: item.options, keepsBlank: keepsBlank)
            if case .success(nil) = decoded {
                read = position + 1
                continue
            }
            // An item that cannot be decoded is not empty: it counts, and its error is reported.
            guard kept < cap else {
                overCap = cap
                break
            }
            kept += 1
            read = position + 1
            switch decoded {
            case .success(let decoded?):
                if case .dateTime(let dateTime) = decoded { shownDateTimes[position] = dateTime.local.description }
                values.append(decoded)
                positions.append(position)
            case .success(nil): continue
            case .failure(let problem): problems.append((position, problem))
            }
        }
        // Passwords never come back.
        entered =
            item.type.isSecret
            ? [] : raw.prefix(read).enumerated().compactMap { shownDateTimes[$0] ?? $1.enteredText }
    }

    /// Whether `value` is text of ASCII white space only (HTML's, as the page script reads it).
    private static func isBlank(_ value: RawValue) -> Bool {
        guard case .text(let text) = value else { return false }
        return text.utf8.allSatisfy { [9, 10, 12, 13, 32].contains($0) }
    }

    /// The items of a stored record being edited, each a value of `item`.
    init(stored: [FormValue], item: Row) {
        values = stored
        positions = Array(values.indices)
        entered = Self.shown(values, item: item.type)
    }

    /// The items of a fresh page: the section's descriptor rows' values.
    init(defaults section: Section) {
        values = section.rows.compactMap(\.value)
        positions = Array(values.indices)
        entered = Self.shown(values, item: (section.rowTemplate ?? section.rows.first)?.type)
    }

    /// What a page shows for `values`: a password never goes back to the browser (docs/submissions.md, rule 10),
    /// so each is an empty control.
    private static func shown(_ values: [FormValue], item type: RowType?) -> [String] {
        type?.isSecret == true ? values.map { _ in "" } : values.map(\.inputText)
    }
}
