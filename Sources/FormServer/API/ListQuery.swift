import FormStore
import Foundation
import HTTPServer

/// A listing's query: `limit` (1 to 1,000, 100 unless given), `cursor` (the last id of the page before:
/// the `next` address carries it), `since` and `until` (instants, `2026-11-28T09:00:00Z` or
/// `2026-11-28`; `until` itself excluded). Anything else is a `400` naming it: a mistyped parameter
/// must not list what was not asked for.
struct ListQuery {
    let limit: Int
    let range: SubmissionRange
    /// The parameters as given but the cursor, for the next page's address.
    private let kept: [(name: String, value: String)]

    init(_ query: QueryParameters) throws(APIProblem) {
        var limit = SubmissionAPI.defaultLimit
        var cursor: SubmissionID?
        var since: UInt64?
        var until: UInt64?
        var kept: [(name: String, value: String)] = []
        for (name, value) in query {
            switch name {
            case "limit":
                guard let number = Int(value), (1...SubmissionAPI.largestLimit).contains(number) else {
                    throw .badRequest("limit must be a whole number from 1 to \(SubmissionAPI.largestLimit)")
                }
                limit = number
            case "cursor":
                guard let id = SubmissionID(value) else {
                    throw .badRequest("cursor '\(value.prefix(40))' is not one this API gave")
                }
                cursor = id
                continue
            case "since": since = try Self.milliseconds(value, name)
            case "until": until = try Self.milliseconds(value, name)
            default:
                throw .badRequest("unknown parameter '\(name.prefix(40))': give limit, cursor, since or until")
            }
            kept.append((name, value))
        }
        self.limit = limit
        self.kept = kept
        let end = until.map(SubmissionID.first(atMillisecond:))
        range = SubmissionRange(
            from: since.map(SubmissionID.first(atMillisecond:)),
            before: [cursor, end].compactMap { $0 }.min())
    }

    /// The query of the page after the one that ended with `last`.
    func next(after last: SubmissionID) -> String {
        QueryParameters(kept + [("cursor", last.description)]).urlencoded
    }

    /// The milliseconds since 1970 of `text`, an instant with its offset or a day (UTC).
    private static func milliseconds(_ text: String, _ name: String) throws(APIProblem) -> UInt64 {
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let whole = ISO8601DateFormatter()
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        guard let date = whole.date(from: text) ?? fractional.date(from: text) ?? day.date(from: text),
            date.timeIntervalSince1970 >= 0
        else {
            throw .badRequest("\(name) must be an instant such as 2026-11-28T09:00:00Z, or a day such as 2026-11-28")
        }
        return UInt64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }
}
