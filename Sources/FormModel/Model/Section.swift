/// A section of a form: XLForm's `XLFormSectionDescriptor`.
public struct Section: Sendable, Hashable {
    /// How rows of a multivalued section can change.
    public struct MultivaluedOptions: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Rows can be added.
        public static let insert = MultivaluedOptions(rawValue: 1)
        /// Rows can be removed.
        public static let delete = MultivaluedOptions(rawValue: 2)
        /// Rows can be moved.
        public static let reorder = MultivaluedOptions(rawValue: 4)
    }

    /// Where new rows of a multivalued section are added from.
    public enum InsertMode: String, Sendable, Hashable {
        /// An empty row is always offered last.
        case lastRow
        /// An "Add" button adds a row.
        case button
    }

    /// A name for the section, for `$tag.isHidden` and messages.
    public var tag: String?
    /// The heading.
    public var title: String?
    /// Text under the section.
    public var footer: String?
    /// Whether the whole section is hidden, with every row in it.
    public var hidden: Condition = .never
    /// When set, the section is multivalued: its rows' values are collected into an array under this key.
    public var multivaluedTag: String?
    /// What a multivalued section allows.
    public var multivaluedOptions: MultivaluedOptions = []
    /// How a multivalued section adds rows.
    public var insertMode: InsertMode = .button
    /// The row a multivalued section adds.
    public var rowTemplate: Row?
    /// The most rows a multivalued section accepts (the server caps what is posted).
    public var maxRows: Int?
    /// The rows, in order.
    public var rows: [Row]

    /// A section with `rows`; every other setting at its default.
    public init(title: String? = nil, rows: [Row] = []) {
        self.title = title
        self.rows = rows
    }

    /// Whether rows' values are collected under `multivaluedTag`.
    public var isMultivalued: Bool { multivaluedTag != nil }

    /// The cap a multivalued section applies when `maxRows` is not given.
    public static let defaultMaxRows = 50

    /// The most items a multivalued section keeps: `maxRows` (or the default) when it may grow
    /// (`insert`), else no more than the rows its descriptor gives it. The server, the page and its
    /// script all cap by this, so none of them offers or counts an item another would refuse.
    public var itemCap: Int {
        let limit = maxRows ?? Self.defaultMaxRows
        return multivaluedOptions.contains(.insert) ? limit : min(limit, max(1, rows.count))
    }
}
