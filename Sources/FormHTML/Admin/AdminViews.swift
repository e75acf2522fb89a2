/// What the operator's view pages show, gathered by the server from its store and forms, and drawn
/// by `AdminPages`: plain values, every text escaped where it is written.

/// What every page of a signed-in operator shares: the texts, the key signed in with, and the token
/// each of its posts carries (sign-out, delete).
public struct AdminFrame: Sendable {
    public var texts: AdminTexts
    public var keyName: String
    public var csrf: String

    /// A frame of these parts.
    public init(texts: AdminTexts, keyName: String, csrf: String) {
        self.texts = texts
        self.keyName = keyName
        self.csrf = csrf
    }
}

/// How many submissions came on one day (UTC).
public struct DayCount: Sendable, Equatable {
    /// `2026-11-28`.
    public var day: String
    public var count: Int

    /// A day's count.
    public init(day: String, count: Int) {
        self.day = day
        self.count = count
    }
}

/// A form's title as written, and its language when it is not the page's.
public struct FormName: Sendable {
    public var id: String
    public var title: String
    /// The form's locale, marked on the title when it differs from the page's language.
    public var locale: String

    /// A form's name.
    public init(id: String, title: String?, locale: String) {
        self.id = id
        self.title = title ?? id
        self.locale = locale
    }
}

/// One form on the overview.
public struct FormSummary: Sendable {
    public var name: FormName
    public var today: Int
    public var week: Int
    public var total: Int
    /// When the newest came (`2026-11-28 09:30`, UTC); nil for none.
    public var last: String?
    /// Deliveries that failed and wait for an operator; nil for a form that delivers nothing.
    public var failed: Int?
    /// The last 30 days, oldest first.
    public var days: [DayCount]

    /// A form's summary.
    public init(name: FormName, today: Int, week: Int, total: Int, last: String?, failed: Int?, days: [DayCount]) {
        self.name = name
        self.today = today
        self.week = week
        self.total = total
        self.last = last
        self.failed = failed
        self.days = days
    }
}

/// A page of a form's submissions, newest first.
public struct SubmissionsView: Sendable {
    /// One submission: its id, when it came, and a cell per column, each cut short already.
    public struct Row: Sendable {
        public var id: String
        public var received: String
        public var cells: [String]

        /// A row.
        public init(id: String, received: String, cells: [String]) {
            self.id = id
            self.received = received
            self.cells = cells
        }
    }

    public var name: FormName
    /// The titles of the form's tagged rows, in page order.
    public var columns: [String]
    public var rows: [Row]
    /// What was searched for, and the range of days asked (`2026-11-01`), as given.
    public var query: String
    public var since: String
    public var until: String
    /// What was wrong with the search, if anything: the search is not made.
    public var problem: String?
    /// The address of the next, older page, and of the newest, while paging.
    public var older: String?
    public var newest: String?
    /// The exports of what is shown, when the key may export.
    public var exports: (csv: String, jsonLines: String)?
    /// Said above the table: a submission just deleted.
    public var notice: String?

    /// A page of submissions.
    public init(name: FormName, columns: [String], rows: [Row], query: String, since: String, until: String) {
        self.name = name
        self.columns = columns
        self.rows = rows
        self.query = query
        self.since = since
        self.until = until
    }
}

/// One submission, drawn read-only in its form's sections.
public struct SubmissionView: Sendable {
    /// A row's answer.
    public enum Value: Sendable {
        case text(String)
        /// The items of a multivalued section, or the options of a multiple selection.
        case list([String])
        case file(name: String, href: String)
        case noAnswer
        /// A password, kept as a hash.
        case secret
    }

    /// A section: its title, and its rows' titles and answers.
    public struct Section: Sendable {
        public var title: String?
        public var fields: [(label: String, value: Value)]

        /// A section.
        public init(title: String?, fields: [(label: String, value: Value)]) {
            self.title = title
            self.fields = fields
        }
    }

    /// A version of an edited submission.
    public struct Version: Sendable {
        public var number: Int
        public var saved: String
        public var href: String
        public var isShown: Bool

        /// A version.
        public init(number: Int, saved: String, href: String, isShown: Bool) {
            self.number = number
            self.saved = saved
            self.href = href
            self.isShown = isShown
        }
    }

    /// A delivery job and how it went.
    public struct Delivery: Sendable {
        public var kind: String
        public var destination: String
        /// `pending`, `delivered` or `failed`.
        public var state: String
        public var attempts: Int
        public var lastError: String?

        /// A delivery.
        public init(kind: String, destination: String, state: String, attempts: Int, lastError: String?) {
            self.kind = kind
            self.destination = destination
            self.state = state
            self.attempts = attempts
            self.lastError = lastError
        }
    }

    public var name: FormName
    public var id: String
    public var received: String
    /// The version shown, and when it was saved, for an edited submission.
    public var version: Int
    public var edited: String?
    public var sections: [Section]
    /// Every version, for a submission edited at least once.
    public var versions: [Version]
    public var deliveries: [Delivery]
    /// The address of the delete confirmation, for a key that may delete.
    public var delete: String?

    /// A submission.
    public init(name: FormName, id: String, received: String, version: Int, sections: [Section]) {
        self.name = name
        self.id = id
        self.received = received
        self.version = version
        self.sections = sections
        versions = []
        deliveries = []
    }
}

/// The counts of one row's answers, drawn as bars.
public struct AnswerChart: Sendable {
    public var title: String
    public var bars: [(label: String, count: Int)]

    /// A row's chart.
    public init(title: String, bars: [(label: String, count: Int)]) {
        self.title = title
        self.bars = bars
    }
}
