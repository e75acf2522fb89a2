/// What the operator's view shows of a form without reading its submissions: counts the store keeps as
/// it keeps, erases and edits them, per form and hour (UTC), so a form of a million submissions is
/// counted from a few thousand rows.
public struct SubmissionCounts: Sendable, Equatable {
    /// Every submission kept.
    public var total: Int
    /// Submissions per hour (hours since 1970, UTC) from the hour asked for; hours without any are absent.
    public var hours: [Int: Int]
    /// The newest submission's id, which says when it came.
    public var last: SubmissionID?

    /// Counts with these parts.
    public init(total: Int = 0, hours: [Int: Int] = [:], last: SubmissionID? = nil) {
        self.total = total
        self.hours = hours
        self.last = last
    }
}

/// A signed-in operator's session of the operator's view: the SHA-256 of its cookie, which the store
/// finds it by, the SHA-256 of the API key that opened it, and when it ends.
public struct AdminSession: Sendable, Equatable {
    /// The SHA-256 of the session's cookie, in hex: a copy of the store opens no session.
    public let hash: String
    /// The hash of the key signed in with (`StoredKey.hash`): revoking the key ends the session.
    public let keyHash: String
    /// When the session ends, milliseconds since 1970.
    public let expires: UInt64

    /// A session with these parts.
    public init(hash: String, keyHash: String, expires: UInt64) {
        self.hash = hash
        self.keyHash = keyHash
        self.expires = expires
    }
}

extension SubmissionID {
    /// The hour it was made in: hours since 1970, UTC, as `SubmissionCounts` counts.
    public var hour: Int { Int(milliseconds / 3_600_000) }
}

/// The rows of `submission_counts` a batch adds to: each form, answer and hour once, with how many.
struct CountIncrements {
    private(set) var rows: [Key: Int] = [:]

    struct Key: Hashable {
        let form: String
        let answer: String
        let hour: Int
    }

    /// Counts `submission` under its form (the answer `""`) and each of its answers.
    mutating func add(_ submission: StoredSubmission) {
        rows[Key(form: submission.formID, answer: "", hour: submission.id.hour), default: 0] += 1
        add(answersOf: submission)
    }

    /// Counts the answers of `edit`, a new version of a submission counted already.
    mutating func add(answersOf edit: StoredSubmission) {
        for answer in edit.answers {
            rows[Key(form: edit.formID, answer: answer, hour: edit.id.hour), default: 0] += 1
        }
    }

    /// The rows in the order of their key, text byte by byte as the "C" collation orders it.
    var sorted: [(key: Key, count: Int)] {
        rows.map { ($0.key, $0.value) }.sorted { left, right in
            if left.key.form != right.key.form {
                return Array(left.key.form.utf8).lexicographicallyPrecedes(right.key.form.utf8)
            }
            if left.key.answer != right.key.answer {
                return Array(left.key.answer.utf8).lexicographicallyPrecedes(right.key.answer.utf8)
            }
            return left.key.hour < right.key.hour
        }
    }

    /// The lines a submission keeps of its answers (`submissions.answers`).
    static func column(_ answers: [String]) -> String { answers.joined(separator: "\n") }
}
