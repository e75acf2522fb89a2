import FormModel

/// What a page shows beyond its descriptor: the values entered, the server's verdict on every
/// condition, the errors, and the CSRF token. `FormServer` fills it from a submission's verdict;
/// a fresh page uses `PageState.initial(for:)`'s answer, computed once per form.
///
/// Values are the texts a browser posts (`FieldNames` says under which names), so a re-rendered page
/// shows exactly what was typed, `"abc"` in a number row included.
public struct PageState: Sendable {
    /// The texts entered per row index (`CompiledForm.rows`); a row absent here shows its descriptor
    /// value. A checkbox row holds `["on"]` when checked and `[]` when not; a multiple selector holds
    /// the chosen option values.
    public var values: [Int: [String]] = [:]
    /// The texts of each multivalued section's items, by section index, in order. A section absent here
    /// shows its descriptor rows' values.
    public var items: [Int: [String]] = [:]
    /// Errors, in the order the summary lists them.
    public var errors: [PageError] = []
    /// Per row index: hidden by its own condition or its section's.
    public var rowHidden: [Bool]
    /// Per row index: disabled (the whole form's `disabled` included).
    public var rowDisabled: [Bool]
    /// Per row index: required right now (a `required` predicate evaluated).
    public var rowRequired: [Bool]
    /// Per section index: hidden.
    public var sectionHidden: [Bool]
    /// The signed token a browser post must carry back in the `_csrf` field; nil leaves the field out.
    public var csrfToken: String?
    /// The version of the stored record the page shows, carried back in the `_version` field so the
    /// server can tell a post made from an older version; nil leaves the field out.
    public var recordVersion: String?
    /// The query the form posts back with (`id=42`, for a page fetched as `/forms/profile?id=42`): the
    /// page of a stored record posts to the address it came from, where the server finds the same
    /// record. Nil: the form posts to `/forms/{id}`.
    public var actionQuery: String?
    /// Per row index, for enabled rows whose `disabled` is a condition: the texts of the value the
    /// server keeps when the row is disabled (the stored record's or the descriptor's). After a refused
    /// post such a row shows what was typed; if its condition turns true live, the page script shows
    /// and reads this instead, as the server will (docs/submissions.md, rule 5).
    public var serverValues: [Int: [String]] = [:]
    /// Per upload row index: the file the server holds from a refused post (`HeldFile`), named beside
    /// the control and sent back with the next post unless another is chosen.
    public var heldFiles: [Int: HeldFile] = [:]

    /// Per row whose options come from a source (`optionsFrom`): what its search shows.
    public var searches: [Int: Search] = [:]

    /// What a searched selector shows: the text searched for, the matches of a search the server ran
    /// (a page without script), the option chosen with its title, and whether the source failed.
    public struct Search: Sendable, Equatable {
        /// What was typed in the search field.
        public var query: String
        /// The matches of a search run for this page; nil when none was.
        public var matches: [Option]?
        /// The option the row holds, with its title.
        public var chosen: Option?
        /// Whether the source could not be searched.
        public var unavailable: Bool

        /// A search state; every part empty unless given.
        public init(query: String = "", matches: [Option]? = nil, chosen: Option? = nil, unavailable: Bool = false) {
            self.query = query
            self.matches = matches
            self.chosen = chosen
            self.unavailable = unavailable
        }
    }

    /// The id of the kept submission the page changes (opened through its edit link): a paragraph
    /// above the form says so. Nil for any other page.
    public var editedReference: String?

    /// A file the server holds for the next post: its signed reference (posted back as `_held.<tag>`),
    /// and the name and size the page shows. A file of the submission being changed has no reference:
    /// the server takes it from the submission.
    public struct HeldFile: Sendable, Equatable {
        public let reference: String?
        public let filename: String
        public let size: Int

        public init(reference: String?, filename: String, size: Int) {
            self.reference = reference
            self.filename = filename
            self.size = size
        }
    }

    /// Shows `value` in row `row`: the texts its control holds for it (`texts(of:)`).
    public mutating func show(_ value: FormValue?, row: Int) { values[row] = Self.texts(of: value) }

    /// The texts a control holds for `value`: `["on"]` for true, nothing for false, the option values of
    /// a multiple selection, `H:MM:SS` for a duration, ISO-8601 for dates and times (a date-time as its
    /// wall-clock reading).
    public static func texts(of value: FormValue?) -> [String] { ValueTexts.texts(value) }
    /// Where keyboard focus starts (`autofocus`, which needs no script), instead of the error summary.
    public var focus: PageFocus?

    /// The text a multivalued item's control holds for `value` (a boolean's choice: `true` or `false`).
    public static func itemText(of value: FormValue) -> String { ValueTexts.itemText(value) }

    /// A state for a form of `rowCount` rows and `sectionCount` sections with nothing hidden, disabled
    /// or required and no values entered.
    public init(rowCount: Int, sectionCount: Int) {
        rowHidden = Array(repeating: false, count: rowCount)
        rowDisabled = Array(repeating: false, count: rowCount)
        rowRequired = Array(repeating: false, count: rowCount)
        sectionHidden = Array(repeating: false, count: sectionCount)
    }
}

/// Where a page puts keyboard focus when it loads. After "Add another" with no script, the page comes
/// back from the server: without a target, focus would start at the top of the page, far from where
/// the person was.
public enum PageFocus: Sendable, Hashable {
    /// The control of item `position` of multivalued section `section` (the item just added).
    case item(section: Int, position: Int)
    /// Multivalued section `section` itself, named by its legend (no item could be added).
    case section(Int)
}

/// One error as a page shows it: beside its field and in the summary at the top.
public struct PageError: Sendable, Hashable {
    /// The row index the error belongs to, or nil for a multivalued item or the whole form.
    public var row: Int?
    /// For an error on a multivalued section's item: the section index.
    public var section: Int?
    /// For an error on a multivalued section's item: the item's position, from 0; nil for an error on
    /// the section as a whole.
    public var position: Int?
    /// What is wrong, already localised.
    public var message: String
    /// The language `message` is in, when it may not be the form's (a built-in message in the
    /// reader's language): the page marks it with `lang` where that is not the page's language.
    public var language: String?

    /// An error on row `row`.
    public init(row: Int, message: String) {
        self.row = row
        self.message = message
    }

    /// An error on item `position` of multivalued section `section`.
    public init(section: Int, position: Int, message: String) {
        self.section = section
        self.position = position
        self.message = message
    }

    /// An error about multivalued section `section` as a whole (too many items), shown under its legend.
    public init(section: Int, message: String) {
        self.section = section
        self.message = message
    }

    /// An error about the whole form (shown only in the summary).
    public init(formMessage message: String) { self.message = message }
}

/// The names under which a page posts its fields; the server decodes by the same names.
public enum FieldNames {
    /// The hidden field carrying the CSRF token.
    public static let csrf = "_csrf"
    /// The submit button that asks for one more item in a multivalued section instead of submitting:
    /// its value is the section's `multivaluedTag`.
    public static let addItem = "_add"
    /// The submit button that searches a selector's option source instead of submitting, without a
    /// script: its value is the row's tag.
    public static let search = "_search"
    /// The text a searched selector's search field posts for the row `tag`.
    public static func query(tag: String) -> String { "_q." + tag }
    /// The hidden field carrying the version of the stored record the page showed.
    public static let version = "_version"
    /// A row posts under its tag; a multivalued section's items post, in order, under its `multivaluedTag`.
    public static func field(tag: String) -> String { tag }
}
