import Foundation
import Synchronization
import Testing

@testable import FormStore

/// `SQLiteSubmissionStore` on real database files in a temporary folder.
@Suite struct SQLiteSubmissionStoreTests {
    private static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fw-store-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private static func submission(
        _ form: String, _ number: Int, at milliseconds: UInt64 = 1_764_000_000_000
    )
        -> StoredSubmission
    {
        StoredSubmission(
            id: SubmissionID(milliseconds: milliseconds + UInt64(number)), formID: form,
            received: "2026-11-28T07:00:00.000Z", httpParameters: #"{"n":\#(number)}"#,
            formValues: #"{"n":{"value":\#(number)}}"#)
    }

    /// What is kept is read back, newest first, by form; and it is still there for a store that opens
    /// the file afresh, as a restarted server does.
    @Test func aKeptSubmissionIsReadBackAndOutlivesTheStore() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("formwright.db").path
        let events = (0..<3).map { Self.submission("event", $0) }
        let pet = Self.submission("pets", 9)
        do {
            let store = try SQLiteSubmissionStore(path: path)
            for event in events { try await store.keep(event) }
            try await store.keep(pet)
            #expect(try store.submissions(formID: "event") == events.reversed())
        }
        let reopened = try SQLiteSubmissionStore(path: path)
        #expect(try reopened.submissions(formID: "event", limit: 2) == [events[2], events[1]])
        #expect(try reopened.submissions(formID: "pets") == [pet])
        #expect(try reopened.submissions(formID: "nothing").isEmpty)
    }

    /// Submissions that arrive together share transactions: every one is kept, in fewer commits than
    /// submissions.
    @Test func concurrentSubmissionsShareCommits() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteSubmissionStore(path: folder.appendingPathComponent("formwright.db").path)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<400 { group.addTask { try await store.keep(Self.submission("event", number)) } }
            try await group.waitForAll()
        }
        #expect(try store.submissions(formID: "event", limit: 1000).count == 400)
        #expect(store.batches.load(ordering: .relaxed) < 400)
    }

    /// A second id that is taken fails its whole batch: nothing of it is kept, and the store goes on.
    @Test func aFailedBatchKeepsNothingOfItAndTheStoreGoesOn() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteSubmissionStore(path: folder.appendingPathComponent("formwright.db").path)
        let first = Self.submission("event", 1)
        try await store.keep(first)
        await #expect(throws: StoreError.self) { try await store.keep(first) }
        try await store.keep(Self.submission("event", 2))
        #expect(try store.submissions(formID: "event").count == 2)
    }

    /// A file that cannot be opened stops the store at once, naming it; so does a database whose
    /// schema is newer than this server's.
    @Test func aStoreThatCannotOpenSaysWhichFileAndWhy() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("no/such/folder/formwright.db").path
        #expect { try SQLiteSubmissionStore(path: missing) } throws: { "\($0)".contains(missing) }
        let path = folder.appendingPathComponent("newer.db").path
        _ = try SQLiteSubmissionStore(path: path)
        let database = try SQLiteDatabase(path: path)
        try database.execute("INSERT INTO formwright_schema (version) VALUES (99)")
        #expect { try SQLiteSubmissionStore(path: path) } throws: {
            "\($0)".contains("schema version 99, newer than this server's 1")
        }
    }

    /// Servers starting together on a new file migrate it once: each finds the schema it needs.
    @Test func storesOpeningOneNewFileTogetherMigrateItOnce() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("formwright.db").path
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { _ = try SQLiteSubmissionStore(path: path) } }
            try await group.waitForAll()
        }
        let versions = try SQLiteDatabase(path: path).prepare("SELECT version FROM formwright_schema").rows()
        #expect(versions == [["1"]])
    }
}
