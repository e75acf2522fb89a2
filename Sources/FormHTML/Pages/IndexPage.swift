/// The list of forms at `/`: each form's title linking to `/forms/{id}`. Built once; `render()`
/// returns the same bytes every time.
///
/// ```swift
/// let index = IndexPage(entries: catalog.ids.map { IndexPage.Entry(id: $0, title: catalog.forms[$0]?.form.title) })
/// let bytes = index.render()
/// ```
public struct IndexPage: Sendable {
    /// One listed form.
    public struct Entry: Sendable, Hashable {
        /// The form's id, the last segment of its URL.
        public var id: String
        /// Its title; the id is shown when nil.
        public var title: String?

        /// A listed form.
        public init(id: String, title: String? = nil) {
            self.id = id
            self.title = title
        }
    }

    private let bytes: [UInt8]

    /// The index of `entries`, in that order, with `texts`' heading and language.
    public init(entries: [Entry], texts: PageTexts = .english) {
        var writer = HTMLWriter()
        PageShell.writeStart(
            language: texts.language, title: HTML(text: texts.formsTitle), errorPrefix: nil, into: &writer)
        writer.markup("<ul class=\"fw-forms\">\n")
        for entry in entries {
            writer.markup("<li><a")
            writer.attribute("href", SafeURL.formPath(entry.id))
            writer.markup(">")
            writer.text(entry.title ?? entry.id)
            writer.markup("</a></li>\n")
        }
        writer.markup("</ul>\n")
        PageShell.writeEnd(into: &writer)
        bytes = writer.bytes
    }

    /// The page.
    public func render() -> [UInt8] { bytes }
}
