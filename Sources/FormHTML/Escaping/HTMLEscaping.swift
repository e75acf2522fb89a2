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
        // Eight bytes at a time, in a word: a page's token (43 bytes) is checked on every request, a
        // byte at a time is slow, and Swift's `SIMD16` compiles to a loop over lanes here. The last
        // eight bytes are read as one word too, overlapping the word before them, so no byte is left
        // over for a loop of its own.
        guard let base = bytes.baseAddress, bytes.count >= 8 else { return isUnchangedByBytes(attributeValue: bytes) }
        // The loop leaves at the first word to escape: a loop that only gathered the words' escapes
        // would be vectorised into far more code, all of it read by each token's check.
        var offset = 0
        while offset < bytes.count &- 8 {
            if attributeEscapes(inWord: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)) != 0 {
                return false
            }
            offset &+= 8
        }
        let last = UnsafeRawPointer(base + (bytes.count &- 8)).loadUnaligned(as: UInt64.self)
        return attributeEscapes(inWord: last) == 0
    }

    /// `isUnchanged(attributeValue:)` for fewer than eight bytes: out of line, as a token never takes it.
    @inline(never)
    private static func isUnchangedByBytes(attributeValue bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !bytes.contains { needsEscape($0, quotes: true) }
    }

    /// Nonzero exactly when one of the eight bytes of `word` is escaped in a quoted attribute value:
    /// `&`, `<`, `>`, `"`, `'` or NUL.
    @inline(__always)
    private static func attributeEscapes(inWord word: UInt64) -> UInt64 {
        // The bytes of `word ^ byte * ones` that are zero are those equal to `byte`. Setting one bit in
        // every byte first folds two values that differ only there: `&` (0x26) with `'` (0x27), and
        // `<` (0x3C) with `>` (0x3E).
        let ones: UInt64 = 0x0101_0101_0101_0101
        return hasZeroByte((word | ones) ^ (0x27 &* ones)) | hasZeroByte((word | 2 &* ones) ^ (0x3E &* ones))
            | hasZeroByte(word ^ (0x22 &* ones)) | hasZeroByte(word)
    }

    /// Nonzero exactly when a byte of `word` is zero: subtracting one from each byte borrows out of
    /// a zero byte's high bit, which `~word` keeps only where the byte had it clear.
    @inline(__always)
    private static func hasZeroByte(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
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
