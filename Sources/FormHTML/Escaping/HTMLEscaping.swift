/// The two escaping functions of the module. Text and attribute values are escaped separately
/// because they end at different characters (HTML spec §13.1.2.3 "Attributes": a double-quoted
/// value ends at `"`; §13.1.2.2 text ends at `<`, and `&` starts a character reference in both).
enum HTMLEscaping {
    /// Appends `text` escaped for an element's content: `&`, `<`, `>`.
    static func appendText(_ text: String, to bytes: inout [UInt8]) {
        append(text, to: &bytes, quotes: false)
    }

    /// Appends `value` escaped for a quoted attribute value: `&`, `<`, `>`, `"`, `'`.
    /// Both quotes are escaped so the value is safe whichever quote delimits it.
    static func appendAttributeValue(_ value: String, to bytes: inout [UInt8]) {
        append(value, to: &bytes, quotes: true)
    }

    /// Whether `value` needs no escaping as a quoted attribute value: `appendAttributeValue` would
    /// copy it as it is.
    static func isUnchanged(attributeValue value: String) -> Bool {
        var value = value
        return value.withUTF8 { isUnchanged(attributeValue: $0) }
    }

    /// Whether the UTF-8 `bytes` are already escaped for a quoted attribute value.
    static func isUnchanged(attributeValue bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !bytes.contains { needsEscape($0, quotes: true) }
    }

    private static func append(_ string: String, to bytes: inout [UInt8], quotes: Bool) {
        var string = string
        string.withUTF8 { utf8 in
            // Most texts need no escaping: copy them in one go.
            guard utf8.contains(where: { needsEscape($0, quotes: quotes) }) else {
                bytes.append(contentsOf: utf8)
                return
            }
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "&"): bytes.append(contentsOf: ampersand)
                case UInt8(ascii: "<"): bytes.append(contentsOf: lessThan)
                case UInt8(ascii: ">"): bytes.append(contentsOf: greaterThan)
                case UInt8(ascii: "\"") where quotes: bytes.append(contentsOf: quote)
                case UInt8(ascii: "'") where quotes: bytes.append(contentsOf: apostrophe)
                // NUL is a parse error in text and attributes; U+FFFD is what a parser would show.
                case 0: bytes.append(contentsOf: [0xEF, 0xBF, 0xBD])
                default: bytes.append(byte)
                }
            }
        }
    }

    /// Whether `byte` is escaped in text (`quotes` false) or in a quoted attribute value (true). Every
    /// such byte is below 64, so the test is one bit of a mask: a page's token is checked per request.
    private static func needsEscape(_ byte: UInt8, quotes: Bool) -> Bool {
        byte < 64 && (quotes ? attributeEscapes : textEscapes) &>> UInt64(byte) & 1 != 0
    }

    /// The bytes escaped in text, one bit each: `&`, `<`, `>` and NUL.
    private static let textEscapes: UInt64 =
        1 << UInt64(UInt8(ascii: "&")) | 1 << UInt64(UInt8(ascii: "<")) | 1 << UInt64(UInt8(ascii: ">")) | 1
    /// The bytes escaped in a quoted attribute value: those of text, and both quotes.
    private static let attributeEscapes: UInt64 =
        textEscapes | 1 << UInt64(UInt8(ascii: "\"")) | 1 << UInt64(UInt8(ascii: "'"))

    private static let ampersand = Array("&amp;".utf8)
    private static let lessThan = Array("&lt;".utf8)
    private static let greaterThan = Array("&gt;".utf8)
    private static let quote = Array("&quot;".utf8)
    private static let apostrophe = Array("&#39;".utf8)
}
