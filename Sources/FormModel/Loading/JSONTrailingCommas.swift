/// Trailing commas in a JSON descriptor (`[1, 2,]`, `{"a": 1,}`), which JSON (RFC 8259 §4, §5) does not
/// allow. The loader reads JSON with the YAML parser, whose flow collections do allow them; a `.json`
/// file that a strict JSON reader elsewhere (an editor, `jq`, a build step) would refuse must not pass
/// `check` silently.
enum JSONTrailingCommas {
    /// Where each trailing comma of `text` is (line and column from 1), with the bracket it comes before.
    static func find(in text: String) -> [(line: Int, column: Int, closing: Character)] {
        var found: [(line: Int, column: Int, closing: Character)] = []
        var line = 1
        var column = 0
        var inString = false
        var escaped = false
        var pendingComma: (line: Int, column: Int)?
        for character in text {
            if character == "\n" || character == "\r\n" {
                line += 1
                column = 0
            } else {
                column += 1
            }
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
                continue
            }
            switch character {
            case " ", "\t", "\n", "\r", "\r\n": continue
            case ",": pendingComma = (line, column)
            case "}", "]":
                if let comma = pendingComma { found.append((comma.line, comma.column, character)) }
                pendingComma = nil
            case "\"":
                inString = true
                pendingComma = nil
            default: pendingComma = nil
            }
        }
        return found
    }
}
