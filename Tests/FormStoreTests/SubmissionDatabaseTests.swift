import Foundation
import Synchronization
import TestProcesses
import Testing

@testable import FormStore

/// The stores' one set of tests, run on each: a real SQLite file in a temporary folder, and a new
/// database on a real PostgreSQL server (`PostgresCluster`).
enum Backend: String, CaseIterable, CustomTestStringConvertible {
    case sqlite, postgres

    var testDescription: String { rawValue }

    /// A place for a new store: a file path, or a database URL.
    func place() throws -> String {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fw-store-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return folder.appendingPathComponent("formwright.db").path
        case .postgres:
            return try PostgresCluster.shared.get().newDatabase()
        }
    }

    /// The store at `place`, opened (and migrated).
    func open(_ place: String) throws -> any SubmissionDatabase {
        switch self {
        case .sqlite: try SQLiteSubmissionStore(path: place)
        case .postgres: try PostgresSubmissionStore(url: place, name: place)
        }
    }

    /// How many transactions `store` committed submissions in.
    func batches(_ store: any SubmissionDatabase) -> Int {
        (store as? SQLiteSubmissionStore)?.batches ?? (store as? PostgresSubmissionStore)?.batches ?? 0
    }
}

@Suite struct SubmissionDatabaseTests {
    static func submission(
        _ form: String, _ number: Int, at milliseconds: UInt64 = 1_764_000_000_000, files: [StoredFile] = []
    ) -> StoredSubmission {
        StoredSubmission(
            id: SubmissionID(milliseconds: milliseconds + UInt64(number)), formID: form,
            received: "2026-11-28T07:00:00.000Z", httpParameters: #"{"n":\#(number),"name":"Zoë 🎉"}"#,
            formValues: #"{"n":{"value":\#(number)}}"#, files: files)
    }

    /// What is kept is read back, newest first, by form, files and all (an empty file too); and it is
    /// still there for a store that opens it afresh, as a restarted server does.
    @Test(arguments: Backend.allCases)
    func aKeptSubmissionIsReadBackAndOutlivesTheStore(_ backend: Backend) async throws {
        let place = try backend.place()
        let events = (0..<3).map { Self.submission("event", $0) }
        let files = [
            StoredFile(tag: "cv", filename: "cv.pdf", contentType: "application/pdf", bytes: [0, 1, 2, 255, 0]),
            StoredFile(tag: "docs[1]", filename: "empty.txt", contentType: "text/plain", bytes: []),
        ]
        let pet = Self.submission("pets", 9, files: files)
        do {
            let store = try backend.open(place)
            for event in events { try await store.keep(event) }
            try await store.keep(pet)
            #expect(try store.submissions(formID: "event", limit: 100) == events.reversed())
        }
        let reopened = try backend.open(place)
        #expect(try reopened.submissions(formID: "event", limit: 2) == [events[2], events[1]])
        // A listing leaves files out; the submission itself has them.
        #expect(try reopened.submissions(formID: "pets", limit: 100) == [pet.with(files: [])])
        #expect(try reopened.submission(formID: "pets", id: pet.id) == pet)
        #expect(try reopened.submission(formID: "event", id: pet.id) == nil)
        #expect(try reopened.submissions(formID: "nothing", limit: 100).isEmpty)
        try reopened.ping()
    }

    /// A listing pages through a range of ids, newest first: `before` a page's last id gives the next
    /// page, and a time range is an id range.
    @Test(arguments: Backend.allCases)
    func rangesPageNewestFirst(_ backend: Backend) async throws {
        let store = try backend.open(try backend.place())
        let events = (0..<10).map { Self.submission("event", $0) }  // a millisecond apart
        for event in events { try await store.keep(event) }
        try await store.keep(Self.submission("pets", 3))
        let first = try store.submissions(formID: "event", in: SubmissionRange(), limit: 4)
        #expect(first == Array(events.reversed()[0..<4]))
        let second = try store.submissions(formID: "event", in: SubmissionRange(before: first.last?.id), limit: 4)
        #expect(second == Array(events.reversed()[4..<8]))
        let millisecond = { (number: Int) in SubmissionID.first(atMillisecond: 1_764_000_000_000 + UInt64(number)) }
        let window = try store.submissions(
            formID: "event", in: SubmissionRange(from: millisecond(3), before: millisecond(6)), limit: 100)
        #expect(window == [events[5], events[4], events[3]])
    }

    /// Keys are kept by name and found by hash; a name is taken once; a revoked key is gone.
    @Test(arguments: Backend.allCases)
    func keysAreAddedFoundAndRevoked(_ backend: Backend) throws {
        let store = try backend.open(try backend.place())
        let reader = StoredKey(
            name: "reports", hash: String(repeating: "a", count: 64), scopes: ["export", "read"], forms: ["event"],
            created: "2026-11-28T09:00:00Z")
        let admin = StoredKey(
            name: "admin", hash: String(repeating: "b", count: 64), scopes: ["delete"], forms: [],
            created: "2026-11-28T09:01:00Z")
        #expect(try store.add(reader))
        #expect(try store.add(admin))
        #expect(try !store.add(StoredKey(name: "reports", hash: "c", scopes: [], forms: [], created: "")))
        #expect(try store.keys() == [admin, reader])
        #expect(try store.key(hash: reader.hash) == reader)
        #expect(try store.key(hash: "c") == nil)
        #expect(try store.revokeKey(named: "reports"))
        #expect(try !store.revokeKey(named: "reports"))
        #expect(try store.key(hash: reader.hash) == nil)
        #expect(try store.keys() == [admin])
    }

    /// An export reads every submission of one form, oldest first, without files.
    @Test(arguments: Backend.allCases)
    func forEachReadsOneFormOldestFirst(_ backend: Backend) async throws {
        let store = try backend.open(try backend.place())
        let events = (0..<50).map { Self.submission("event", $0) }
        for event in events.shuffled() { try await store.keep(event) }
        try await store.keep(Self.submission("pets", 1))
        var read: [StoredSubmission] = []
        try store.forEach(formID: "event") { read.append($0) }
        #expect(read == events)
    }

    /// Submissions that arrive together share transactions: every one is kept, in fewer commits than
    /// submissions.
    @Test(arguments: Backend.allCases)
    func concurrentSubmissionsShareCommits(_ backend: Backend) async throws {
        let store = try backend.open(try backend.place())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<400 { group.addTask { try await store.keep(Self.submission("event", number)) } }
            try await group.waitForAll()
        }
        #expect(try store.submissions(formID: "event", limit: 1000).count == 400)
        #expect(backend.batches(store) < 400)
    }

    /// A second id that is taken fails its whole batch: nothing of it is kept, and the store goes on.
    @Test(arguments: Backend.allCases)
    func aFailedBatchKeepsNothingOfItAndTheStoreGoesOn(_ backend: Backend) async throws {
        let store = try backend.open(try backend.place())
        let first = Self.submission("event", 1)
        try await store.keep(first)
        let file = StoredFile(tag: "cv", filename: "cv.pdf", contentType: "application/pdf", bytes: [1])
        await #expect(throws: StoreError.self) {
            try await store.keep(first.with(files: [file]))
        }
        let second = Self.submission("event", 2)
        try await store.keep(second)
        let kept = try store.submissions(formID: "event", limit: 100)
        #expect(kept.map(\.id) == [second.id, first.id])
        #expect(try store.submission(formID: "event", id: first.id)?.files == [])
    }

    /// A submission with 14,000 files needs more parameters than one PostgreSQL statement takes: it is
    /// kept whole all the same, in one transaction of several statements.
    @Test(arguments: Backend.allCases)
    func aSubmissionWithThousandsOfFilesIsKeptWhole(_ backend: Backend) async throws {
        let store = try backend.open(try backend.place())
        let files = (0..<14_000).map {
            StoredFile(tag: "docs[\($0)]", filename: "\($0).txt", contentType: "text/plain", bytes: [UInt8($0 % 256)])
        }
        let submission = Self.submission("event", 1, files: files)
        try await store.keep(submission)
        #expect(try store.submission(formID: "event", id: submission.id) == submission)
    }

    /// A held file is taken once, by its reference and form, until its time ends; holding another
    /// removes those whose time ended.
    @Test(arguments: Backend.allCases)
    func heldFilesAreTakenOnceUntilTheyExpire(_ backend: Backend) throws {
        let store = try backend.open(try backend.place())
        let file = StoredFile(tag: "cv", filename: "cv.pdf", contentType: "application/pdf", bytes: [0, 1, 2])
        try store.hold(file, reference: "a", formID: "jobs", expires: 2_000, now: 1_000)
        #expect(try store.takeHeld(reference: "a", formID: "pets", now: 1_500) == nil)
        #expect(try store.takeHeld(reference: "b", formID: "jobs", now: 1_500) == nil)
        #expect(try store.takeHeld(reference: "a", formID: "jobs", now: 1_500) == file)
        #expect(try store.takeHeld(reference: "a", formID: "jobs", now: 1_500) == nil)
        try store.hold(file, reference: "c", formID: "jobs", expires: 2_000, now: 1_000)
        #expect(try store.takeHeld(reference: "c", formID: "jobs", now: 2_001) == nil)
        try store.hold(file, reference: "d", formID: "jobs", expires: 2_000, now: 1_000)
        try store.hold(file, reference: "e", formID: "jobs", expires: 9_000, now: 3_000)
        // Gone, not merely past its time: a clock set back does not bring it back.
        #expect(try store.takeHeld(reference: "d", formID: "jobs", now: 1_500) == nil)
        #expect(try store.takeHeld(reference: "e", formID: "jobs", now: 3_000) == file)
    }

    /// Erasure takes the submission and its files, and only from its own form.
    @Test(arguments: Backend.allCases)
    func deleteErasesOneSubmissionOfItsFormOnly(_ backend: Backend) async throws {
        let store = try backend.open(try backend.place())
        let file = StoredFile(tag: "cv", filename: "cv.pdf", contentType: "application/pdf", bytes: [1, 2])
        let kept = Self.submission("event", 1, files: [file])
        try await store.keep(kept)
        #expect(try !store.delete(formID: "pets", id: kept.id))
        #expect(try store.delete(formID: "event", id: kept.id))
        #expect(try !store.delete(formID: "event", id: kept.id))
        #expect(try store.submissions(formID: "event", limit: 100).isEmpty)
    }

    /// A store newer than this server refuses to open, saying so.
    @Test(arguments: Backend.allCases)
    func aStoreWithANewerSchemaRefusesToOpen(_ backend: Backend) throws {
        let place = try backend.place()
        _ = try backend.open(place)
        switch backend {
        case .sqlite: try SQLiteDatabase(path: place).execute("INSERT INTO formwright_schema (version) VALUES (99)")
        case .postgres:
            try PostgresConnection(url: place, name: place).execute("INSERT INTO formwright_schema VALUES (99)")
        }
        #expect { try backend.open(place) } throws: {
            "\($0)".contains("schema version 99, newer than this server's \(SQLiteMigrations.steps.count)")
        }
    }

    /// Servers starting together on a new store migrate it once: each finds the schema it needs.
    @Test(arguments: Backend.allCases)
    func storesOpeningOneNewStoreTogetherMigrateItOnce(_ backend: Backend) async throws {
        let place = try backend.place()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { _ = try backend.open(place) } }
            try await group.waitForAll()
        }
        let versions: [String] =
            switch backend {
            case .sqlite:
                try SQLiteDatabase(path: place).prepare("SELECT version FROM formwright_schema ORDER BY version").rows()
                    .map {
                        $0[0] ?? ""
                    }
            case .postgres:
                try PostgresConnection(url: place, name: place).run(
                    "SELECT version::text FROM formwright_schema ORDER BY version"
                )
                .map { String(decoding: $0[0] ?? [], as: UTF8.self) }
            }
        #expect(versions == (1...SQLiteMigrations.steps.count).map(String.init))
        #expect(SQLiteMigrations.steps.count == PostgresMigrations.steps.count)
    }
}

/// What each store says when it cannot open.
@Suite struct StoreOpeningTests {
    /// A file that cannot be opened stops the store at once, naming it.
    @Test func anSQLiteFileThatCannotOpenIsNamed() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no/such/\(UUID())/x.db").path
        #expect { try SQLiteSubmissionStore(path: missing) } throws: { "\($0)".contains(missing) }
    }

    /// A server that is not there, or a database that does not exist, is named with libpq's reason.
    @Test func aPostgresServerThatCannotBeReachedIsNamed() throws {
        let cluster = try PostgresCluster.shared.get()
        #expect {
            try PostgresSubmissionStore(url: "postgres://formwright@127.0.0.1:1/x", name: "db-at-port-1")
        } throws: {
            "\($0)".contains("cannot connect to PostgreSQL at db-at-port-1") && "\($0)".contains("refused")
        }
        #expect { try PostgresSubmissionStore(url: cluster.url(of: "missing"), name: "missing-db") } throws: {
            "\($0)".contains("missing-db") && "\($0)".contains("\"missing\" does not exist")
        }
    }
}
