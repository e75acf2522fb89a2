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
            // libpq ends the user and password at the first of these, then names what follows (the
            // rest of the password among it) in its error: refused before it sees them.
            if let userinfo = userinfo(of: location), userinfo.contains(where: { "@/?#".contains($0) }) {
                throw FormServerError(
                    message:
                        "--store \(redacted(location)): write @ / ? # in the user or password percent-encoded (%40 %2F %3F %23)"
                )
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

    /// `location` with a password in it hidden, for messages and logs: everything after the user's `:`
    /// up to the last `@` (`postgres://ada:…@db/forms`), and a `password=` parameter's value.
    public static func redacted(_ location: String) -> String {
        var text = location
        if let scheme = location.range(of: "://"), let userinfo = userinfo(of: location),
            let colon = userinfo.firstIndex(of: ":"), let at = location.lastIndex(of: "@")
        {
            text = String(location[..<scheme.upperBound]) + userinfo[..<colon] + ":…" + location[at...]
        }
        return text.replacing(/(?i)(password=)[^&#]*/) { "\($0.output.1)…" }
    }

    /// What comes between `://` and the last `@` of `location`: its user and password; nil without an `@`.
    private static func userinfo(of location: String) -> Substring? {
        guard let scheme = location.range(of: "://"), let at = location.lastIndex(of: "@"), at > scheme.upperBound
        else { return nil }
        return location[scheme.upperBound..<at]
    }
}
