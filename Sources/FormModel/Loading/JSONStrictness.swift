/// What a `.json` descriptor holds that JSON (RFC 8259) does not allow, though the loader would read
/// it: the loader reads JSON with the YAML parser, whose flow style also takes trailing commas
/// (`[1, 2,]`, `{"a": 1,}`), `#` comments and single-quoted strings. A `.json` file that a strict JSON
/// reader elsewhere (an editor, `jq`, a build step) would refuse must not pass `check` silently.
enum JSONStrictness {
    /// One thing JSON does not allow, where it is (line and column from 1).
    struct Problem: Equatable {
        let line: Int
        let column: Int
        let message: String
    }

    /// Every trailing comma, comment and single-quoted string of `text`, in order. Strings in double
    /// quotes (escapes included), comments and single-quoted strings are stepped over, so a comma or a
    /// bracket inside one is not mistaken for JSON's own.
    static func problems(in text: String) -> [Problem] {
        var problems: [Problem] = []
        var (line, column) = (1, 0)
        var state = State.json
        var pendingComma: (line: Int, column: Int)?
        func report(_ message: String, at place: (line: Int, column: Int)) {
            problems.append(Problem(line: place.line, column: place.column, message: message))
        }
        for character in text {
            if character == "\n" || character == "\r\n" {
                (line, column) = (line + 1, 0)
                if state == .comment { state = .json }
            } else {
                column += 1
            }
            switch state {
            case .comment: continue
            case .doubleQuoted(let escaped):
                state =
                    escaped
                    ? .doubleQuoted(escaped: false)
                    : character == "\\"
                        ? .doubleQuoted(escaped: true)
                        : character == "\"" ? .json : state
                continue
            case .singleQuoted:
                // YAML doubles a quote inside single quotes (`'it''s'`): closing and reopening reads the same.
                if character == "'" { state = .json }
                continue
            case .json: break
            }
            switch character {
            case " ", "\t", "\n", "\r", "\r\n": continue
            case ",": pendingComma = (line, column)
            case "}", "]":
                if let comma = pendingComma {
                    report("a comma before '\(character)' is not allowed in JSON: remove it", at: comma)
                }
                pendingComma = nil
            case "\"":
                state = .doubleQuoted(escaped: false)
                pendingComma = nil
            case "#":
                report("a comment is not allowed in JSON: remove it, or write the form in YAML", at: (line, column))
                state = .comment
            case "'":
                report("JSON strings are in double quotes (\"…\"), not single ones", at: (line, column))
                state = .singleQuoted
                pendingComma = nil
            default: pendingComma = nil
            }
        }
        return problems
    }

    /// Where the scan stands.
    private enum State: Equatable {
        case json
        case doubleQuoted(escaped: Bool)
        case singleQuoted
        case comment
    }
}
