/// JSON string literals (RFC 8259 §7) for everything that writes JSON by hand: the AST, the line
/// protocol, and the rules a page embeds.
public enum JSONString {
    /// `text` in double quotes, with quotes, backslashes and control characters escaped, and U+2028 /
    /// U+2029 too, so the JSON is also a valid JavaScript literal and can sit in a `<script>` block.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
