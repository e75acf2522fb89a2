import Foundation
import Testing

@testable import FormStore

/// What the operator's view reads: counts kept as submissions are kept, erased and edited; a search
/// over the payloads; sessions that end, and end with their key.
@Suite struct CountsAndSessionsTests {
    /// 2025-11-24T16:00:00Z, the start of an hour.
    static let hour: UInt64 = 1_764_000_000_000 / 3_600_000 * 3_600_000

    static func submission(
        _ form: String, at milliseconds: UInt64, name: String = "Ada", answers: [String] = []
    ) -> StoredSubmission {
        StoredSubmission(
            id: SubmissionID(milliseconds: milliseconds), formID: form,
            received: ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000)),
            httpParameters: #"{"name":"\#(name)"}"#, formValues: "{}", answers: answers)
    }

    @Test(arguments: Backend.allCases)
    func countsFollowKeepsErasuresAndEdits(_ backend: Backend) async throws {
        let store = try backend.open(try backend.place())
        let first = Self.submission("rsvp", at: Self.hour, answers: [#"["diet","vegan"]"#, #"["late",true]"#])
        let second = Self.submission("rsvp", at: Self.hour + 60_000, answers: [#"["diet","vegan"]"#])
        let third = Self.submission("rsvp", at: Self.hour + 2 * 3_600_000 + 5, answers: [#"["diet","fish"]"#])
        let other = Self.submission("pets", at: Self.hour)
        // Together and apart: a batch counts as its submissions do one by one.
        async let a: Void = store.keep(first)
        async let b: Void = store.keep(second)
        _ = try await (a, b)
        try await store.keep(third)
        try await store.keep(other)
        let hour = first.id.hour
        var counts = try store.counts(formID: "rsvp", sinceHour: 0)
        #expect(counts.total == 3)
        #expect(counts.hours == [hour: 2, hour + 2: 1])
        #expect(counts.last == third.id)
        #expect(try store.counts(formID: "rsvp", sinceHour: hour + 1).hours == [hour + 2: 1])
        #expect(try store.counts(formID: "pets", sinceHour: 0).total == 1)
        #expect(try store.counts(formID: "none", sinceHour: 0) == SubmissionCounts())
        #expect(
            try store.answerCounts(formID: "rsvp", sinceHour: 0) == [
                #"["diet","vegan"]"#: 2, #"["late",true]"#: 1, #"["diet","fish"]"#: 1,
            ])
        #expect(try store.answerCounts(formID: "rsvp", sinceHour: hour + 1) == [#"["diet","fish"]"#: 1])

        // An edit moves its answers; the submission still counts once, in the hour it came.
        let edit = StoredSubmission(
            id: second.id, formID: "rsvp", received: "2026-11-28T09:00:00.000Z", httpParameters: "{}",
            formValues: "{}", answers: [#"["diet","fish"]"#])
        #expect(try store.revise(edit, from: 1) == .saved(version: 2))
        #expect(try store.counts(formID: "rsvp", sinceHour: 0).hours == [hour: 2, hour + 2: 1])
        #expect(
            try store.answerCounts(formID: "rsvp", sinceHour: 0) == [
                #"["diet","vegan"]"#: 1, #"["late",true]"#: 1, #"["diet","fish"]"#: 2,
            ])

        // Erasure takes back the submission and its current answers; a second erasure, nothing.
        #expect(try store.delete(formID: "rsvp", id: first.id))
        #expect(try !store.delete(formID: "rsvp", id: first.id))
        #expect(try !store.delete(formID: "pets", id: second.id))
        counts = try store.counts(formID: "rsvp", sinceHour: 0)
        #expect(counts.total == 2)
        #expect(counts.hours == [hour: 1, hour + 2: 1])
        #expect(try store.answerCounts(formID: "rsvp", sinceHour: 0) == [#"["diet","fish"]"#: 2])
        #expect(try store.counts(formID: "pets", sinceHour: 0).total == 1)
    }

    @Test(arguments: Backend.allCases)
    func aSearchFindsPayloadsHoldingTheTextInAnyCaseOfAToZ(_ backend: Backend) async throws {
        let store = try backend.open(try backend.place())
        let names = ["Ada Lovelace", "GRACE hopper", "ada king", "Zoë", "Éva", "50% off", "under_score"]
        var kept: [StoredSubmission] = []
        for (offset, name) in names.enumerated() {
            let submission = Self.submission("rsvp", at: Self.hour + UInt64(offset), name: name)
            try await store.keep(submission)
            kept.append(submission)
        }
        let found = { (text: String, limit: Int) in
            try store.submissions(formID: "rsvp", in: SubmissionRange(), containing: text, limit: limit)
                .map { kept.firstIndex(of: $0.with(files: [])) ?? -1 }
        }
        #expect(try found("ADA", 10) == [2, 0])
        #expect(try found("ada", 1) == [2])
        #expect(try found("hopper", 10) == [1])
        #expect(try found("zoë", 10) == [3])
        // SQL's wildcards are text like any other.
        #expect(try found("%", 10) == [5])
        #expect(try found("_", 10) == [6])
        #expect(try found("nobody", 10) == [])
        let range = SubmissionRange(from: nil, before: kept[2].id)
        #expect(
            try store.submissions(formID: "rsvp", in: range, containing: "ada", limit: 10).map(\.id) == [kept[0].id])
        let cursor = try store.cursor(formID: "rsvp", formValues: false, range: SubmissionRange(), containing: "ADA")
        var exported: [SubmissionID] = []
        while let next = try cursor.next() { exported.append(next.id) }
        #expect(exported == [kept[0].id, kept[2].id])
    }

    @Test(arguments: Backend.allCases)
    func aSessionEndsWhenItExpiresIsClosedOrItsKeyIsRevoked(_ backend: Backend) throws {
        let store = try backend.open(try backend.place())
        let key = StoredKey(name: "ops", hash: "k1", scopes: ["read"], forms: [], created: "2026-11-28T00:00:00Z")
        #expect(try store.add(key))
        try store.openSession(AdminSession(hash: "s1", keyHash: "k1", expires: 2_000), now: 1_000)
        try store.openSession(AdminSession(hash: "s2", keyHash: "k1", expires: 3_000), now: 1_000)
        try store.openSession(AdminSession(hash: "s3", keyHash: "nokey", expires: 3_000), now: 1_000)
        let open = try #require(try store.session(hash: "s1", now: 1_500))
        #expect(open.key == key)
        #expect(open.session == AdminSession(hash: "s1", keyHash: "k1", expires: 2_000))
        #expect(try store.session(hash: "s1", now: 2_001) == nil)
        #expect(try store.session(hash: "s3", now: 1_500) == nil)
        #expect(try store.session(hash: "unknown", now: 1_500) == nil)
        try store.closeSession(hash: "s2")
        #expect(try store.session(hash: "s2", now: 1_500) == nil)
        try store.openSession(AdminSession(hash: "s4", keyHash: "k1", expires: 3_000), now: 1_000)
        #expect(try store.revokeKey(named: "ops"))
        #expect(try store.session(hash: "s4", now: 1_500) == nil)
    }
}
