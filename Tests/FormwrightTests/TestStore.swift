import FormStore
import Foundation
import TestProcesses

/// A new, empty store for one test: an SQLite file in a temporary folder, or a database on the
/// tests' PostgreSQL server; named as `serve --store` takes it, and opened directly to check what it
/// keeps.
struct TestStore {
    /// What `--store` is given.
    let location: String
    private let folder: URL?

    /// A store of `backend`: `sqlite` or `postgres`.
    init(_ backend: String) throws {
        if backend == "postgres" {
            location = try PostgresCluster.shared.get().newDatabase()
            folder = nil
        } else {
            let folder = try temporaryFolder()
            location = "sqlite:" + folder.appendingPathComponent("formwright.db").path
            self.folder = folder
        }
    }

    /// The store, opened afresh, as a restarted server opens it.
    func open() throws -> any SubmissionDatabase {
        guard location.hasPrefix("sqlite:") else { return try PostgresSubmissionStore(url: location, name: location) }
        return try SQLiteSubmissionStore(path: String(location.dropFirst("sqlite:".count)))
    }

    /// The ids of every submission of form `formID` kept now.
    func keptIDs(of formID: String) throws -> [String] {
        try open().submissions(formID: formID, limit: 1_000_000).map(\.id.description)
    }

    /// Removes the SQLite file's folder (a PostgreSQL database goes with the tests' server).
    func remove() {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }
}
