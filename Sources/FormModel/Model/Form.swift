/// A whole form: XLForm's `XLFormDescriptor`, plus what serving it on the web needs.
public struct Form: Sendable, Hashable {
    /// What a hidden row means to the conditions that read it (docs/submissions.md, rule 4).
    public enum HiddenValues: String, Sendable, Hashable {
        /// A hidden row is null to conditions: a client cannot reveal a branch by posting a value.
        case clear
        /// A hidden row still feeds conditions, as in XLForm and Eureka (still left out of the payload).
        case keep
    }

    /// The URL id: `/forms/<id>`. A descriptor's `id`, or its file name.
    public var id: String
    /// The page title.
    public var title: String?
    /// The sections, in order.
    public var sections: [Section]
    /// Read-only: every row shows its value and nothing can be submitted.
    public var disabled = false
    /// Whether required rows' titles end with `*` (XLForm's `addAsteriskToRequiredRowsTitle`). On unless
    /// turned off: on the web a reader must see which fields are required before sending (WCAG 3.3.2).
    public var addAsteriskToRequiredRowsTitle = true
    /// The submit button's text.
    public var submitTitle: String?
    /// The language of texts and built-in messages (`en`, `zh-Hans`).
    public var locale = "en"
    /// The time zone in which dates and times are entered (an IANA name).
    public var timeZone = "UTC"
    /// See `HiddenValues`.
    public var hiddenValues = HiddenValues.clear
    /// Where a browser goes after a valid submission; a thank-you page when nil.
    public var successRedirect: String?
    /// Whether the person who sent a submission may change it later (XLForm's edit mode): a server
    /// that keeps submissions in a database gives them a private link to the form filled with what
    /// they sent, and keeps every version.
    public var editable = false
    /// Which rows share a line, and where help is (`layout`).
    public var layout = Layout()
    /// Where its kept submissions are delivered besides the store (`deliver`).
    public var deliveries: [Delivery] = []
    /// Texts per locale a descriptor overrides: `messages["zh-Hans"]["required"]`.
    public var messages: [String: [String: String]] = [:]

    /// A form with `id` and `sections`; every other setting at its default.
    public init(id: String, title: String? = nil, sections: [Section] = []) {
        self.id = id
        self.title = title
        self.sections = sections
    }

    /// Every row with its section index and row index, in page order.
    public var allRows: [(section: Int, row: Int, value: Row)] {
        sections.enumerated().flatMap { sectionIndex, section in
            section.rows.enumerated().map { (sectionIndex, $0.offset, $0.element) }
        }
    }
}
