/// The one byte buffer a page is written into. Markup comes only from `StaticString` literals;
/// every runtime string goes through `text(_:)`, `attribute(_:_:)` or `scriptJSON(_:)`.
struct HTMLWriter {
    /// The page so far.
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// How many bytes are written.
    var count: Int { bytes.count }

    /// Appends markup written in this module's source: a literal, never a runtime string.
    mutating func markup(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends `text` escaped as element content.
    mutating func text(_ text: String) { HTMLEscaping.appendText(text, to: &bytes) }

    /// Appends markup that is already safe.
    mutating func html(_ html: HTML) { bytes.append(contentsOf: html.bytes) }

    /// Appends ` name="value"`, the value escaped for a double-quoted attribute.
    mutating func attribute(_ name: StaticString, _ value: String) {
        markup(" ")
        markup(name)
        markup("=\"")
        HTMLEscaping.appendAttributeValue(value, to: &bytes)
        markup("\"")
    }

    /// Appends ` name="value"` for a value written in this module's source (`"email"`, `"decimal"`),
    /// which needs no escaping.
    mutating func attribute(_ name: StaticString, literal value: StaticString) {
        markup(" ")
        markup(name)
        markup("=\"")
        markup(value)
        markup("\"")
    }

    /// Appends `value` escaped for a double-quoted attribute, with no name or quotes around it.
    mutating func attributeValue(_ value: String) { HTMLEscaping.appendAttributeValue(value, to: &bytes) }

    /// Appends ` name="value"` for a value escaped once, at init, with `HTML(attributeValue:)`.
    mutating func attribute(_ name: StaticString, escaped value: HTML) {
        markup(" ")
        markup(name)
        markup("=\"")
        html(value)
        markup("\"")
    }

    /// Appends ` lang="…"` when `language` is given: text in another language than the page's.
    mutating func lang(_ language: String?) {
        if let language { attribute("lang", language) }
    }

    /// Appends `text` escaped as element content, in `<span lang="…">` when `language` is given.
    mutating func text(_ text: String, lang language: String?) {
        guard let language else { return self.text(text) }
        markup("<span")
        attribute("lang", language)
        markup(">")
        self.text(text)
        markup("</span>")
    }

    /// Appends ` name` (a boolean attribute) when `on`.
    mutating func flag(_ name: StaticString, _ on: Bool) {
        guard on else { return }
        markup(" ")
        markup(name)
    }

    /// Appends JSON as the content of a `<script type="application/json">`. A script's text ends at
    /// the first `</script` and `<!--` changes how it is tokenised (HTML spec §4.12.1.3 "Restrictions
    /// for contents of script elements"), so every `<` becomes `\u003c`. Outside strings JSON has no
    /// `<`, so the result is the same JSON value.
    mutating func scriptJSON(_ json: String) {
        for byte in json.utf8 {
            if byte == UInt8(ascii: "<") {
                markup("\\u003c")
            } else {
                bytes.append(byte)
            }
        }
    }

    /// Appends bytes this module rendered earlier (a precomputed part of a page).
    mutating func rendered(_ part: [UInt8]) { bytes.append(contentsOf: part) }
}
