import FormStore
import Foundation

/// What `--store` names: `sqlite:PATH` (a file, made with its folder when missing),
/// `postgres://…` or `postgresql://…` (a PostgreSQL database, as libpq reads its URLs), or `none`.
public enum StoreLocation {
    /// The store `location` names, opened and migrated; a location that names no store this server
    /// keeps, or a store that cannot be opened or reached, throws a message naming it (its password
    /// hidden).
    public static func open(_ location: String) throws -> any SubmissionDatabase {
        if isPostgres(location) {
            // libpq would take the host from after the first @, and name it, password and all, in its error.
            let authority = location.drop { $0 != "/" }.dropFirst(2).prefix { $0 != "/" }
            guard authority.filter({ $0 == "@" }).count <= 1 else {
                throw FormServerError(
                    message: "--store \(redacted(location)): write an @ in the user or password as %40")
            }
            do {
                return try PostgresSubmissionStore(url: location, name: redacted(location))
            } catch {
                throw FormServerError(message: "cannot keep submissions: \(error.description)")
            }
        }
        guard location.hasPrefix("sqlite:"), location.count > "sqlite:".count else {
            throw FormServerError(
                message:
                    "--store '\(redacted(location))' names no store: give sqlite:PATH (sqlite:data/formwright.db), postgres://USER@HOST/DATABASE or none"
            )
        }
        let path = String(location.dropFirst("sqlite:".count))
        let folder = (path as NSString).deletingLastPathComponent
        do {
            if !folder.isEmpty {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            return try SQLiteSubmissionStore(path: path)
        } catch let error as StoreError {
            throw FormServerError(message: "cannot keep submissions: \(error.description)")
        } catch {
            throw FormServerError(message: "cannot keep submissions in \(path): \(error.localizedDescription)")
        }
    }

    /// Whether `location` names a PostgreSQL database.
    public static func isPostgres(_ location: String) -> Bool {
        location.hasPrefix("postgres://") || location.hasPrefix("postgresql://")
    }

    /// `location` with a password in it (`postgres://user:secret@host`) hidden, for messages and logs:
    /// everything between the user's `:` and the last `@` before the host.
    public static func redacted(_ location: String) -> String {
        guard let scheme = location.range(of: "://") else { return location }
        let authority = location[scheme.upperBound...].prefix { $0 != "/" }
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else {
            return location
        }
        return String(location[...colon]) + "…" + String(location[at...])
    }
}
