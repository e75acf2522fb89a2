import FormModel

/// Markup that is safe to place in a page: text escaped for an element's content, or bytes the
/// renderer of this module wrote itself.
///
/// There is no public way to wrap raw bytes: outside `FormHTML` the only door is `HTML(text:)`, which
/// escapes. Inside, raw markup comes only from `StaticString` literals (see `HTMLWriter.markup(_:)`),
/// so no runtime string can become markup without passing through an escaping function.
///
/// ```swift
/// HTML(text: "<b>").bytes  // the bytes of "&lt;b&gt;"
/// ```
public struct HTML: Sendable, Hashable {
    /// The UTF-8 bytes of the markup.
    public let bytes: [UInt8]

    /// `text` escaped for an element's content: `&`, `<` and `>` become character references.
    public init(text: String) {
        var bytes: [UInt8] = []
        HTMLEscaping.appendText(text, to: &bytes)
        self.bytes = bytes
    }

    /// Bytes the renderer produced; only this module may vouch for them.
    init(rendered bytes: [UInt8]) { self.bytes = bytes }

    /// `value` escaped for a quoted attribute value (`&`, `<`, `>`, `"` and `'`). The result is also
    /// safe as element content, which is why it can share this type.
    init(attributeValue value: String) {
        var bytes: [UInt8] = []
        HTMLEscaping.appendAttributeValue(value, to: &bytes)
        self.bytes = bytes
    }

    /// ` data-NAME="value"` for each pair, the value escaped. A name the model does not allow
    /// (`CustomRowBehaviour.isDataName`) is left out: a type used without registering it (a form written
    /// in Swift) has not been checked by `RowTypes.register`.
    init(dataAttributes pairs: [(name: String, value: String)]) {
        var bytes: [UInt8] = []
        for (name, value) in pairs where CustomRowBehaviour.isDataName(name) {
            bytes.append(contentsOf: " data-".utf8)
            bytes.append(contentsOf: name.utf8)
            bytes.append(contentsOf: "=\"".utf8)
            HTMLEscaping.appendAttributeValue(value, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        }
        self.bytes = bytes
    }

    /// Nothing.
    static let empty = HTML(rendered: [])

    /// Whether there are no bytes.
    var isEmpty: Bool { bytes.isEmpty }
}
