import Foundation
import Testing

@testable import FormStore

/// The delivery jobs of both stores (`DeliveryOutbox`): written with their submission or not at all,
/// claimed under a lease by one worker at a time, recorded attempt by attempt, counted, sent again on
/// demand, and erased with their submission.
@Suite struct OutboxTests {
    /// Submission `number` of form `rsvp` with `count` webhook jobs due at `due`.
    static func submission(_ number: Int, jobs count: Int, due: UInt64 = 1_000) -> StoredSubmission {
        let base = SubmissionDatabaseTests.submission("rsvp", number)
        return StoredSubmission(
            id: base.id, formID: base.formID, received: base.received, httpParameters: base.httpParameters,
            formValues: base.formValues, deliveries: jobs(count, of: base.id, version: 1, due: due))
    }

    /// `count` webhook jobs of version `version` of submission `id`, due at `due`.
    static func jobs(_ count: Int, of id: SubmissionID, version: Int, due: UInt64 = 1_000) -> [StoredDelivery] {
        (0..<count).map { index in
            StoredDelivery(
                id: "msg_\(id)_\(version)_\(index)", submission: id, version: version, formID: "rsvp",
                kind: "webhook", destination: "http://127.0.0.1:9/hook", secretName: "HOOK_SECRET", body: "",
                due: due, created: "2026-11-28T12:00:00.000Z")
        }
    }

    /// `jobs` as a claim returns them: with the payloads of `submission`.
    static func claimed(_ jobs: [StoredDelivery], of submission: StoredSubmission) -> [StoredDelivery] {
        jobs.map {
            StoredDelivery(
                id: $0.id, submission: $0.submission, version: $0.version, formID: $0.formID, kind: $0.kind,
                destination: $0.destination, secretName: $0.secretName, body: $0.body, due: $0.due,
                created: $0.created,
                payloads: DeliveryPayloads(
                    httpParameters: submission.httpParameters, formValues: submission.formValues))
        }
    }

    static func attempt(_ number: Int, delivered: Bool) -> DeliveryAttempt {
        DeliveryAttempt(
            number: number, at: "2026-11-28T12:00:0\(number).000Z", delivered: delivered, status: delivered ? 200 : 500,
            error: delivered ? nil : "HTTP 500", milliseconds: 12)
    }

    /// Jobs come with their submission; on PostgreSQL one claimed is leased and no other worker's until
    /// the lease ends (an SQLite file's one worker records a round before claiming again, so a claim
    /// there writes nothing, and a server killed mid-round sends its jobs again at once when it
    /// restarts); an attempt recorded sets what comes next.
    @Test(arguments: Backend.allCases)
    func jobsAreClaimedUnderALeaseAndRecorded(_ backend: Backend) async throws {
        let store = try backend.open(try backend.place())
        let sent = Self.submission(1, jobs: 2)
        try await store.keep(sent)
        #expect(try store.submission(formID: "rsvp", id: sent.id)?.deliveries == [])
        let claimed = try store.outbox.claim(now: 1_000, lease: 61_000, limit: 10)
        #expect(claimed == Self.claimed(sent.deliveries, of: sent))
        let second = try store.outbox.claim(now: 2_000, lease: 62_000, limit: 10)
        #expect(second == (backend == .postgres ? [] : claimed))
        #expect(try store.outbox.claim(now: 61_001, lease: 121_001, limit: 1).count == 1)
        #expect(try store.outbox.counts() == ["rsvp": DeliveryCount(pending: 2, failed: 0)])

        try store.outbox.record([
            DeliveryResult(id: claimed[0].id, attempt: Self.attempt(1, delivered: true), state: .delivered, due: 1_000),
            DeliveryResult(id: claimed[1].id, attempt: Self.attempt(1, delivered: false), state: .pending, due: 5_000),
        ])
        // The second is due at 5 s, and no longer leased.
        #expect(try store.outbox.claim(now: 4_999, lease: 64_999, limit: 10).isEmpty)
        let again = try store.outbox.claim(now: 5_000, lease: 65_000, limit: 10)
        #expect(again.map(\.id) == [claimed[1].id])
        #expect(again.first?.attempts == 1)
        try store.outbox.record([
            DeliveryResult(id: claimed[1].id, attempt: Self.attempt(2, delivered: false), state: .failed, due: 5_000)
        ])
        #expect(try store.outbox.counts() == ["rsvp": DeliveryCount(pending: 0, failed: 1)])
        #expect(try store.outbox.deliveries(formID: "rsvp", state: .failed, limit: 10).map(\.id) == [claimed[1].id])
        let log = try store.outbox.deliveries(formID: "rsvp", submission: sent.id)
        #expect(log.map(\.delivery.state) == [.delivered, .failed])
        #expect(log[1].attempts == [Self.attempt(1, delivered: false), Self.attempt(2, delivered: false)])
        #expect(log[0].attempts == [Self.attempt(1, delivered: true)])
        #expect(try store.outbox.deliveries(formID: "pets", submission: sent.id).isEmpty)

        // Sent again on demand: pending and due at once; another form's job is not there.
        #expect(try !store.outbox.retry(formID: "pets", id: claimed[1].id, now: 9_000))
        #expect(try store.outbox.retry(formID: "rsvp", id: claimed[1].id, now: 9_000))
        #expect(try store.outbox.claim(now: 9_000, lease: 69_000, limit: 10).map(\.id) == [claimed[1].id])
    }

    /// A batch that fails keeps neither its submissions nor their jobs; erasure takes a submission's
    /// jobs and their logs, and only its own: a submission of the same millisecond, whose jobs' ids share
    /// the most with them, keeps its. A round whose job was erased meanwhile is still recorded for the
    /// others; an attempt that had no answer keeps no status.
    @Test(arguments: Backend.allCases)
    func jobsLiveAndDieWithTheirSubmission(_ backend: Backend) async throws {
        let place = try backend.place()
        let store = try backend.open(place)
        let sent = Self.submission(1, jobs: 1)
        try await store.keep(sent)
        // The same id again, with three jobs: refused, and none of its jobs is kept.
        let again = Self.submission(1, jobs: 3)
        let clash = StoredSubmission(
            id: sent.id, formID: "rsvp", received: sent.received, httpParameters: "{}", formValues: "{}",
            deliveries: again.deliveries.map {
                StoredDelivery(
                    id: $0.id.replacingOccurrences(of: "\(again.id)", with: "\(sent.id)") + "x", submission: sent.id,
                    version: 1, formID: "rsvp", kind: $0.kind, destination: $0.destination, secretName: $0.secretName,
                    body: $0.body, due: $0.due, created: $0.created)
            })
        await #expect(throws: StoreError.self) { try await store.keep(clash) }
        #expect(try store.outbox.counts() == ["rsvp": DeliveryCount(pending: 1)])
        let job = try #require(try store.outbox.claim(now: 1_000, lease: 2_000, limit: 1).first)
        try store.outbox.record([
            DeliveryResult(id: job.id, attempt: Self.attempt(1, delivered: false), state: .pending, due: 3_000)
        ])
        let neighbour = Self.submission(1, jobs: 2)
        #expect(neighbour.id.description.prefix(10) == sent.id.description.prefix(10))
        try await store.keep(neighbour)
        let round = try store.outbox.claim(now: 3_000, lease: 4_000, limit: 10)
        #expect(round.count == 3)
        #expect(try store.delete(formID: "rsvp", id: sent.id))
        let silent = DeliveryAttempt(
            number: 1, at: "2026-11-28T12:00:09.000Z", delivered: false, status: nil, error: "Couldn't connect",
            milliseconds: 3)
        try store.outbox.record(
            round.map { DeliveryResult(id: $0.id, attempt: silent, state: .pending, due: 9_000) })
        #expect(try store.outbox.counts() == ["rsvp": DeliveryCount(pending: 2)])
        let kept = try store.outbox.deliveries(formID: "rsvp", submission: neighbour.id)
        #expect(kept.map(\.delivery.id) == neighbour.deliveries.map(\.id))
        #expect(kept.map(\.attempts) == [[silent], [silent]])
        #expect(try store.outbox.deliveries(formID: "rsvp", submission: sent.id).isEmpty)
        #expect(try RevisionTests.rows(backend, place, ["deliveries", "delivery_attempts"]) == [2, 2])
    }

    /// Workers of four servers claiming one database's jobs at once never get the same job: each of 200
    /// is claimed exactly once.
    @Test func workersOnOnePostgresClaimEachJobOnce() async throws {
        let place = try Backend.postgres.place()
        let first = try Backend.postgres.open(place)
        for number in 0..<40 { try await first.keep(Self.submission(number, jobs: 5)) }
        let stores = try (0..<4).map { _ in try Backend.postgres.open(place) }
        let claimed = try await withThrowingTaskGroup(of: [String].self) { group in
            for store in stores {
                group.addTask {
                    var mine: [String] = []
                    while true {
                        let jobs = try store.outbox.claim(now: 1_000, lease: 600_000, limit: 7)
                        if jobs.isEmpty { return mine }
                        mine += jobs.map(\.id)
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(claimed.count == 200)
        #expect(Set(claimed).count == 200)
    }

    /// A webhook job is claimed with the payloads of the version it names, which an edit does not
    /// change: the first version's job sends the first version, from where the edit moved it. An e-mail
    /// job keeps its own message and comes with no payloads.
    @Test(arguments: Backend.allCases)
    func aWebhookJobComesWithThePayloadsOfItsVersion(_ backend: Backend) async throws {
        let store = try backend.open(try backend.place())
        let sent = Self.submission(1, jobs: 1)
        let mail = StoredDelivery(
            id: "msg_\(sent.id)_1_1", submission: sent.id, version: 1, formID: "rsvp", kind: "email",
            destination: "team@example.org", secretName: "", body: #"{"subject":"s","text":"t","html":"h"}"#,
            due: 1_000, created: "2026-11-28T12:00:00.000Z")
        try await store.keep(
            StoredSubmission(
                id: sent.id, formID: "rsvp", received: sent.received, httpParameters: sent.httpParameters,
                formValues: sent.formValues, deliveries: sent.deliveries + [mail]))
        let edit = StoredSubmission(
            id: sent.id, formID: "rsvp", received: "2026-11-28T13:00:00.000Z", httpParameters: #"{"n":2}"#,
            formValues: #"{"n":{"value":2}}"#, deliveries: Self.jobs(1, of: sent.id, version: 2))
        #expect(try store.revise(edit, from: 1) == .saved(version: 2))
        let claimed = try store.outbox.claim(now: 1_000, lease: 61_000, limit: 10)
        #expect(
            claimed == Self.claimed(sent.deliveries, of: sent) + [mail] + Self.claimed(edit.deliveries, of: edit))
    }

    /// Jobs written by the schema before webhook bodies were made when sent (step 5) are brought to
    /// this one: each names the version its id carries, and a webhook's copy of the payloads is dropped
    /// (the same payloads are read from the submission when it is sent); an e-mail keeps its message.
    @Test(arguments: Backend.allCases)
    func jobsOfTheEarlierSchemaNameTheirVersion(_ backend: Backend) async throws {
        let place = try backend.place()
        let id = SubmissionID(milliseconds: 1_764_000_000_000)
        let insert = """
            INSERT INTO formwright_schema (version) VALUES (1), (2), (3), (4), (5);
            INSERT INTO submissions (id, form, received, http_parameters, form_values, version)
            VALUES ('\(id)', 'rsvp', '2026-11-01T00:00:00.000Z', '{"n":2}', '{"n":{"value":2}}', 2);
            INSERT INTO submission_versions (submission, version, saved, http_parameters, form_values)
            VALUES ('\(id)', 1, '2026-11-01T00:00:00.000Z', '{"n":1}', '{"n":{"value":1}}');
            INSERT INTO deliveries (id, submission, form, kind, destination, secret_name, body, state, attempts,
                due, lease, created)
            VALUES ('msg_\(id)_1_0', '\(id)', 'rsvp', 'webhook', 'http://127.0.0.1:9/hook', 'HOOK_SECRET',
                '{"copy":1}', 'pending', 0, 1000, 0, '2026-11-01T00:00:00.000Z'),
                ('msg_\(id)_12_0', '\(id)', 'rsvp', 'webhook', 'http://127.0.0.1:9/hook', 'HOOK_SECRET',
                '{"copy":12}', 'failed', 16, 1000, 0, '2026-11-01T00:00:00.000Z'),
                ('msg_\(id)_1_1', '\(id)', 'rsvp', 'email', 'team@example.org', '', 'kept', 'pending', 0, 1000, 0,
                '2026-11-01T00:00:00.000Z');
            """
        try RevisionTests.earlierStore(backend, place, steps: 5, then: insert)
        let store = try backend.open(place)
        #expect(try store.outbox.counts() == ["rsvp": DeliveryCount(pending: 2, failed: 1)])
        let jobs = try store.outbox.deliveries(formID: "rsvp", submission: id).map(\.delivery)
        #expect(jobs.map(\.id) == ["msg_\(id)_12_0", "msg_\(id)_1_0", "msg_\(id)_1_1"])
        #expect(jobs.map(\.version) == [12, 1, 1])
        #expect(jobs.map(\.body) == ["", "", "kept"])
        let claimed = try store.outbox.claim(now: 1_000, lease: 61_000, limit: 10)
        #expect(claimed.map(\.id) == ["msg_\(id)_1_0", "msg_\(id)_1_1"])
        #expect(
            claimed.map(\.payloads) == [
                DeliveryPayloads(httpParameters: #"{"n":1}"#, formValues: #"{"n":{"value":1}}"#), nil,
            ])
    }
}
