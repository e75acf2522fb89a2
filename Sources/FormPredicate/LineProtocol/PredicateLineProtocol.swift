import Foundation

/// The JSON-lines protocol of `formwright predicate`, used by `Tests/Predicates/check.py`.
///
/// Each input line is `{"predicate": "...", "vars": {...}}`; each answer is one line, in order:
/// `{"result": true}`, `{"result": false}` or `{"error": "..."}`. A malformed line gets an error line.
/// Blank lines are skipped.
///
/// A line with `"ast": true` asks for the parsed predicate instead of a result: the answer is
/// `{"ast": <Predicate.jsonAST()>}` (docs/predicate-ast-json.md), or `{"error": "..."}` when the predicate
/// does not parse; `vars` is then ignored. `Public/forms-rules.js`'s conformance test evaluates these ASTs.
public enum PredicateLineProtocol {
    /// Reads requests from `input` until end of file, writing and flushing one answer per request.
    public static func run(input: FileHandle, output: FileHandle) {
        var pending = Data()
        while true {
            let chunk = input.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            var answers = ""
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                if let answer = response(toLine: line) { answers += answer + "\n" }
            }
            // One write per chunk read: the answers are on the wire before we block reading again.
            if !answers.isEmpty { output.write(Data(answers.utf8)) }
        }
        if let answer = response(toLine: String(decoding: pending, as: UTF8.self)) {
            output.write(Data((answer + "\n").utf8))
        }
    }

    /// The answer line (without newline) for one request line, or `nil` for a blank line.
    public static func response(toLine line: String) -> String? {
        guard line.contains(where: { !$0.isWhitespace }) else { return nil }
        let request: Request
        do {
            request = try JSONDecoder().decode(Request.self, from: Data(line.utf8))
        } catch {
            return errorLine("malformed request line: \(error)")
        }
        do {
            let predicate = try Predicate(request.predicate)
            if request.ast == true { return #"{"ast":"# + predicate.jsonAST() + "}" }
            let result = try predicate.evaluate(request.vars ?? [:])
            return result ? #"{"result":true}"# : #"{"result":false}"#
        } catch {
            return errorLine("\(error)" + bracingHint(request))
        }
    }

    /// When the predicate writes a variable whose name is no identifier (`$second-alert`, with
    /// `second-alert` among the vars), how to name it: the grammar's variable is `$` and a C identifier,
    /// so `$second-alert` reads `$second - alert`, and `${second-alert}` names it whole. The answer's
    /// result is unchanged: only the error says more.
    private static func bracingHint(_ request: Request) -> String {
        let names = (request.vars ?? [:]).keys.filter { name in
            !name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
                && request.predicate.contains("$" + name)
        }
        guard let name = names.sorted().first else { return "" }
        let identifier = name.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        return " (a variable is $ and an identifier, so '$\(name)' is read as '$\(identifier)' and what follows; "
            + "for the variable '\(name)' write ${\(name)})"
    }

    private static func errorLine(_ message: String) -> String {
        var writer = JSONWriter()
        writer.raw("{")
        writer.key("error", first: true)
        writer.writeString(message)
        writer.raw("}")
        return writer.text
    }

    private struct Request: Decodable {
        let predicate: String
        let vars: [String: PredicateValue]?
        /// Answer with the AST rather than evaluating.
        let ast: Bool?
    }
}
