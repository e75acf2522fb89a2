import Foundation
import Testing

@testable import FormStore

/// Edits of kept submissions (`revise`): each saved as the next version, the one it replaces kept
/// with its files, none saved over a version its editor had not seen; erasure takes them all.
@Suite struct RevisionTests {
    static let ticket = StoredFile(
        tag: "ticket", filename: "ticket.pdf", contentType: "application/pdf", bytes: [1, 2])
    static let newer = StoredFile(tag: "ticket", filename: "return.pdf", contentType: "application/pdf", bytes: [3])

    /// `submission`'s edit: new payloads and `files`, saved at `edited`.
    static func edit(
        _ submission: StoredSubmission, _ name: String, files: [StoredFile] = [], edited: String
    )
        -> StoredSubmission
    {
        StoredSubmission(
            id: submission.id, formID: submission.formID, received: edited, httpParameters: #"{"name":"\#(name)"}"#,
            formValues: #"{"name":"\#(name)"}"#, files: files)
    }

    @Test(arguments: Backend.allCases)
    func anEditIsTheNextVersionAndTheOneItReplacesIsKept(_ backend: Backend) async throws {
        let place = try backend.place()
        let sent = SubmissionDatabaseTests.submission("rsvp", 1, files: [Self.ticket])
        do {
            let store = try backend.open(place)
            try await store.keep(sent)
            let first = Self.edit(sent, "Ada L", files: [Self.ticket], edited: "2026-11-28T08:00:00.000Z")
            #expect(try store.revise(first, from: 1) == .saved(version: 2))
            let second = Self.edit(sent, "Ada", files: [Self.newer], edited: "2026-11-28T09:00:00.000Z")
            #expect(try store.revise(second, from: 2) == .saved(version: 3))
        }
        // As a restarted server reads it: the current version where it was, with its own files only.
        let store = try backend.open(place)
        let current = try #require(try store.submission(formID: "rsvp", id: sent.id))
        #expect(current.version == 3)
        #expect(current.received == sent.received)
        #expect(current.edited == "2026-11-28T09:00:00.000Z")
        #expect(current.httpParameters == #"{"name":"Ada"}"#)
        #expect(current.files == [Self.newer])
        #expect(try store.submissions(formID: "rsvp", limit: 10).map(\.version) == [3])
        var exported: [Int] = []
        try store.forEach(formID: "rsvp") { exported.append($0.version) }
        #expect(exported == [3])
        let versions = try #require(try store.versions(formID: "rsvp", id: sent.id))
        #expect(versions.map(\.version) == [1, 2, 3])
        #expect(versions.map(\.saved) == [sent.received, "2026-11-28T08:00:00.000Z", "2026-11-28T09:00:00.000Z"])
        #expect(versions.map(\.httpParameters) == [sent.httpParameters, #"{"name":"Ada L"}"#, #"{"name":"Ada"}"#])
        #expect(versions.map(\.files) == [[Self.ticket], [Self.ticket], [Self.newer]])
        #expect(try store.versions(formID: "pets", id: sent.id) == nil)
    }

    /// An edit made from a version that is no longer the current one saves nothing and says which is;
    /// an edit of a submission the form does not have (erased, or another form's) saves nothing either.
    @Test(arguments: Backend.allCases)
    func anEditFromAnOlderVersionOrOfNoSubmissionSavesNothing(_ backend: Backend) async throws {
        let store = try backend.open(try backend.place())
        let sent = SubmissionDatabaseTests.submission("rsvp", 1)
        try await store.keep(sent)
        #expect(try store.revise(Self.edit(sent, "B", edited: "t1"), from: 1) == .saved(version: 2))
        #expect(try store.revise(Self.edit(sent, "C", edited: "t2"), from: 1) == .changed(current: 2))
        #expect(try store.revise(Self.edit(sent, "C", edited: "t2"), from: 3) == .changed(current: 2))
        #expect(try store.submission(formID: "rsvp", id: sent.id)?.httpParameters == #"{"name":"B"}"#)
        let elsewhere = StoredSubmission(
            id: sent.id, formID: "pets", received: "t3", httpParameters: "{}", formValues: "{}")
        #expect(try store.revise(elsewhere, from: 2) == .missing)
        let never = SubmissionDatabaseTests.submission("rsvp", 2)
        #expect(try store.revise(Self.edit(never, "D", edited: "t4"), from: 1) == .missing)
        #expect(try store.versions(formID: "rsvp", id: sent.id)?.count == 2)
    }

    /// Editors saving from the same version at once, each through a store of its own (servers sharing a
    /// database, on PostgreSQL): one saves, every other is told the version it missed.
    @Test(arguments: Backend.allCases)
    func editorsSavingTogetherFromOneVersionSaveOnce(_ backend: Backend) async throws {
        let place = try backend.place()
        let sent = SubmissionDatabaseTests.submission("rsvp", 1)
        try await backend.open(place).keep(sent)
        let stores = try (0..<4).map { _ in try backend.open(place) }
        let outcomes = try await withThrowingTaskGroup(of: Revision.self) { group in
            for (number, store) in stores.enumerated() {
                group.addTask { try store.revise(Self.edit(sent, "editor \(number)", edited: "t"), from: 1) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == .saved(version: 2) }.count == 1)
        #expect(outcomes.filter { $0 == .changed(current: 2) }.count == 3)
        #expect(try stores[0].versions(formID: "rsvp", id: sent.id)?.map(\.version) == [1, 2])
    }

    /// Erasure takes every version and every file of each: nothing of the submission stays in the store.
    @Test(arguments: Backend.allCases)
    func erasureTakesEveryVersion(_ backend: Backend) async throws {
        let place = try backend.place()
        let store = try backend.open(place)
        let sent = SubmissionDatabaseTests.submission("rsvp", 1, files: [Self.ticket])
        try await store.keep(sent)
        #expect(try store.revise(Self.edit(sent, "B", files: [Self.newer], edited: "t"), from: 1) == .saved(version: 2))
        #expect(try store.delete(formID: "rsvp", id: sent.id))
        #expect(try store.versions(formID: "rsvp", id: sent.id) == nil)
        let counts = try Self.rows(backend, place, ["submissions", "submission_versions", "submission_files"])
        #expect(counts == [0, 0, 0])
    }

    /// A store kept by an earlier Formwright (schema step 3) is brought to this one at start: what it
    /// kept reads as version 1, files included, and can be edited.
    @Test(arguments: Backend.allCases)
    func aStoreOfTheEarlierSchemaIsMigratedAndItsSubmissionsEdited(_ backend: Backend) async throws {
        let place = try backend.place()
        let id = SubmissionID(milliseconds: 1_764_000_000_000)
        let insert = """
            INSERT INTO formwright_schema (version) VALUES (1), (2), (3);
            INSERT INTO submissions (id, form, received, http_parameters, form_values)
            VALUES ('\(id)', 'rsvp', '2026-11-01T00:00:00.000Z', '{"name":"Old"}', '{"name":"Old"}');
            INSERT INTO submission_files (submission, tag, filename, content_type, bytes)
            VALUES ('\(id)', 'ticket', 'ticket.pdf', 'application/pdf', X'0102');
            """
        try Self.earlierStore(
            backend, place, steps: 3, then: insert,
            postgres: insert.replacingOccurrences(of: "X'0102'", with: "'\\x0102'::bytea"))
        let store = try backend.open(place)
        let old = try #require(try store.submission(formID: "rsvp", id: id))
        #expect(old.version == 1)
        #expect(old.edited == nil)
        #expect(old.files == [Self.ticket])
        #expect(try store.revise(Self.edit(old, "New", edited: "t"), from: 1) == .saved(version: 2))
        #expect(try store.versions(formID: "rsvp", id: id)?.map(\.files) == [[Self.ticket], []])
    }

    /// Makes the store at `place` as an earlier Formwright left it: its schema's first `steps` steps,
    /// then `sql` (`postgres` on PostgreSQL, when its SQL differs).
    static func earlierStore(
        _ backend: Backend, _ place: String, steps: Int, then sql: String, postgres: String? = nil
    ) throws {
        switch backend {
        case .sqlite:
            let database = try SQLiteDatabase(path: place)
            try database.execute("CREATE TABLE formwright_schema (version INTEGER NOT NULL)")
            for step in SQLiteMigrations.steps.prefix(steps) { try database.execute(step) }
            try database.execute(sql)
        case .postgres:
            let connection = try PostgresConnection(url: place, name: place)
            try connection.execute("CREATE TABLE formwright_schema (version integer NOT NULL)")
            for step in PostgresMigrations.steps.prefix(steps) { try connection.execute(step) }
            try connection.execute(postgres ?? sql)
        }
    }

    /// How many rows each of `tables` holds.
    static func rows(_ backend: Backend, _ place: String, _ tables: [String]) throws -> [Int] {
        try tables.map { table in
            switch backend {
            case .sqlite:
                Int(try SQLiteDatabase(path: place).prepare("SELECT count(*) FROM \(table)").rows()[0][0] ?? "") ?? -1
            case .postgres:
                Int(
                    String(
                        decoding: try PostgresConnection(url: place, name: place).run(
                            "SELECT count(*)::text FROM \(table)")[0][0] ?? [], as: UTF8.self)) ?? -1
            }
        }
    }
}
