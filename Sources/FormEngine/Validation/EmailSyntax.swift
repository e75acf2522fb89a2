/// The syntax of one e-mail address as browsers check it for `<input type=email>`.
///
/// This is the HTML Living Standard's "valid email address" (the E-mail state of `input`), so the server
/// accepts exactly what the browser accepts:
///
/// ```swift
/// EmailSyntax.isValid("ada@example.com")  // true
/// EmailSyntax.isValid("a@b")              // true: the standard needs no dot in the domain
/// EmailSyntax.isValid("\"ada\"@example")  // false: quoted local parts are not part of the grammar
/// ```
public enum EmailSyntax {
    /// The longest domain label, in bytes.
    // RFC 1034 §3.5, cited by the HTML grammar: "Labels must be 63 characters or less."
    static let maximumLabelLength = 63

    /// Whether `text` is a valid e-mail address per the HTML Living Standard.
    ///
    /// The check is the standard's own regular expression (local part, "@", then dot-separated labels of
    /// `[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?`), written as one pass over the UTF-8 bytes: linear
    /// time, no backtracking, no Foundation.
    /// Any non-ASCII byte, space or control character makes the address invalid; nothing is trimmed.
    public static func isValid(_ text: String) -> Bool {
        // Native strings are already contiguous UTF-8; bridged ones are copied once, keeping the scan linear.
        var text = text
        text.makeContiguousUTF8()
        return text.utf8.withContiguousStorageIfAvailable(isValid(bytes:)) ?? isValid(bytes: Array(text.utf8))
    }

    /// The scan itself: local part up to the first `@`, then dot-separated labels.
    private static func isValid<Bytes: RandomAccessCollection>(bytes: Bytes) -> Bool
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var index = bytes.startIndex
        // Local part: one or more of RFC 5322 `atext` or ".". The HTML grammar deliberately allows dots
        // anywhere ("1*( atext / "." )"), so "a..b@c" and ".a@c" are valid, unlike RFC 5322 dot-atoms.
        while index < bytes.endIndex, isLocalPartByte(bytes[index]) { index += 1 }
        guard index > bytes.startIndex, index < bytes.endIndex, bytes[index] == UInt8(ascii: "@") else {
            return false
        }
        index += 1
        // Domain: label *( "." label ), label = let-dig [ [ ldh-str ] let-dig ], at most 63 bytes each.
        while true {
            let labelStart = index
            while index < bytes.endIndex, isLetterDigitHyphen(bytes[index]) { index += 1 }
            let length = index - labelStart
            guard length >= 1, length <= maximumLabelLength,
                bytes[labelStart] != UInt8(ascii: "-"), bytes[index - 1] != UInt8(ascii: "-")
            else { return false }
            if index == bytes.endIndex { return true }
            // Anything but a dot here (a second "@", a space, a non-ASCII byte) ends the match early.
            guard bytes[index] == UInt8(ascii: ".") else { return false }
            index += 1
        }
    }

    /// RFC 5322 §3.2.3 `atext` plus ".": letters, digits and ``!#$%&'*+-/=?^_`{|}~``.
    private static func isLocalPartByte(_ byte: UInt8) -> Bool {
        if isLetterOrDigit(byte) { return true }
        switch byte {
        case UInt8(ascii: "."), UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"),
            UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "/"),
            UInt8(ascii: "="), UInt8(ascii: "?"), UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"),
            UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"), UInt8(ascii: "~"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// RFC 1034 §3.5 `let-dig` or "-".
    private static func isLetterDigitHyphen(_ byte: UInt8) -> Bool {
        isLetterOrDigit(byte) || byte == UInt8(ascii: "-")
    }

    /// ASCII letter or digit; every byte of a multi-byte UTF-8 sequence is ≥ 0x80 and so fails here.
    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return false
        }
    }
}
