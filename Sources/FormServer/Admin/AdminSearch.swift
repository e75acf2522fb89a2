import FormEngine
import FormModel
import FormStore
import Foundation
import HTTPServer

extension AdminRoutes {
    /// A search of a form's submissions as the table's form sends it: text (`q`), a first and a last
    /// day (`since`, `until`, both included, UTC), and the page's `cursor`. Other parameters are
    /// ignored, as a browser's form may add its own.
    struct Search: Sendable {
        let text: String
        let since: String
        let until: String
        let cursor: SubmissionID?
        /// The ids the search takes; nil when a day is no day, or the first is after the last.
        let range: SubmissionRange?
        /// The rows whose answers are not searched: secrets, kept as hashes.
        let secret: Set<String>

        init(_ query: QueryParameters, form: CompiledForm?) {
            secret = Set(
                form?.rows.compactMap { $0.row.type.isSecret ? $0.row.tag : nil } ?? []
                    + (form?.sections.compactMap { section in
                        section.section.rowTemplate?.type.isSecret == true ? section.section.multivaluedTag : nil
                    } ?? []))
            text = (query["q"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            since = query["since"] ?? ""
            until = query["until"] ?? ""
            cursor = query["cursor"].flatMap(SubmissionID.init)
            let first = since.isEmpty ? UInt64?.none : Self.start(of: since)
            let last = until.isEmpty ? UInt64?.none : Self.start(of: until).map { $0 + 86_400_000 }
            guard since.isEmpty || first != nil, until.isEmpty || last != nil, (first ?? 0) < (last ?? .max) else {
                range = nil
                return
            }
            var range = SubmissionRange(since: first, until: last)
            if let cursor, range.before.map({ cursor < $0 }) ?? true { range.before = cursor }
            self.range = range
        }

        /// Whether nothing is searched for: the newest of every submission.
        var isEmpty: Bool { text.isEmpty && since.isEmpty && until.isEmpty }

        /// What a store looks for in the payloads' JSON text: the text as JSON writes it in a string.
        var needle: String? {
            guard !text.isEmpty else { return nil }
            return String(JSONValue.string(text).text.dropFirst().dropLast())
        }

        /// Whether the payload `parameters` (JSON text) holds the text in an answer, the letters A to
        /// Z in either case, as the store compares them.
        func finds(_ parameters: String) -> Bool {
            guard !text.isEmpty else { return true }
            guard case .object(let members)? = try? JSONValue(parsing: parameters.utf8) else { return false }
            let wanted = SearchText.folded(text)
            return members.contains { tag, value in
                !secret.contains(tag) && Self.answers(in: value).contains { SearchText.folded($0).contains(wanted) }
            }
        }

        /// The query of this search, at the page after `cursor` when given.
        func parameters(cursor: SubmissionID? = nil) -> String {
            let pairs = [("q", text), ("since", since), ("until", until)].filter { !$0.1.isEmpty }
            return QueryParameters(pairs + (cursor.map { [("cursor", $0.description)] } ?? [])).urlencoded
        }

        /// The texts of every answer in `value`: strings and numbers, in lists and files too.
        private static func answers(in value: JSONValue) -> [String] {
            switch value {
            case .string(let text), .number(let text): [text]
            case .array(let values): values.flatMap(answers)
            case .object(let members): members.flatMap { answers(in: $0.1) }
            case .bool, .null: []
            }
        }

        /// Milliseconds since 1970 at the start of `day` (`2026-11-28`, UTC); nil for no such day.
        private static func start(of day: String) -> UInt64? {
            let format = ISO8601DateFormatter()
            format.formatOptions = [.withFullDate]
            guard day.utf8.count == 10, let date = format.date(from: day), date.timeIntervalSince1970 >= 0,
                format.string(from: date) == day
            else { return nil }
            return UInt64(date.timeIntervalSince1970 * 1000)
        }
    }
}
