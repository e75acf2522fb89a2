/// How a form's rows are laid out on the page (TLFormView's layout): which rows share a line on a wide
/// screen, and whether help is shown or waits behind a "?" toggle. Phones stack every row in one column.
///
/// ```yaml
/// layout:
///   lines: [[starts, ends], [url, email]]   # side by side when there is room
///   help: toggle                             # each row's help behind a "?" that opens it
/// ```
public struct Layout: Sendable, Hashable {
    /// Where a row's help text is.
    public enum Help: String, Sendable, Hashable {
        /// Under the label, always shown.
        case shown
        /// Behind a "?" toggle after the label: a disclosure that works without JavaScript and that a
        /// screen reader announces as expanded or collapsed.
        case toggle
    }

    /// Rows that share a line, each by tag: two or more rows of one section, next to one another.
    public var lines: [[String]] = []
    /// Where every row's help is.
    public var help = Help.shown

    /// The default layout: one row under another, help shown.
    public init(lines: [[String]] = [], help: Help = .shown) {
        self.lines = lines
        self.help = help
    }
}
