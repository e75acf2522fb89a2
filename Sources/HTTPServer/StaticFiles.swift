import Foundation

/// Files of one folder, served from memory under a URL prefix with `ETag`, `304` and `Cache-Control`.
///
/// Every file is read, hashed and turned into a prepared response once, when the set is loaded.
/// A request can only reach a file found by that walk: its path is a key into a table, never a path
/// handed to the file system, so `..`, `%2e%2e`, absolute paths and symlinks that point out of the
/// folder have nothing to reach (they answer 404). Changes on disk are picked up by a restart.
///
/// ```swift
/// let files = try StaticFiles(folder: "Public")
/// routes.files("/static", files)
/// ```
public struct StaticFiles: Sendable {
    /// One file's two answers. A class: a request that finds it holds one reference.
    final class Entry: Sendable {
        let full: PreparedResponse
        let notModified: PreparedResponse
        let etag: String

        init(full: PreparedResponse, notModified: PreparedResponse, etag: String) {
            self.full = full
            self.notModified = notModified
            self.etag = etag
        }

        /// `304` when `condition` (an `If-None-Match` value) names this file's version, else the file.
        func response(ifNoneMatch condition: String?) -> Response {
            if let condition, StaticFiles.matches(condition, etag) { return Response(notModified) }
            return Response(full)
        }
    }

    private let entries: [String: Entry]

    /// How large a folder may be, so a misplaced file cannot fill the server's memory.
    public struct Limits: Sendable {
        /// Largest single file; larger ones are left out with a warning.
        public var maxFileSize = 16 << 20
        /// Largest sum of all files.
        public var maxTotalSize = 128 << 20
        /// Default limits.
        public init() {}
    }

    /// The relative paths served, sorted: for logs and tests.
    public var paths: [String] { entries.keys.sorted() }

    /// Loads every regular file under `folder` whose real path stays inside `folder`'s real path.
    /// - Parameter skipped: told the relative path and reason of every file left out.
    public init(
        folder: String, cacheControl: String = "no-cache", limits: Limits = Limits(),
        skipped: (String, String) -> Void = { _, _ in }
    ) throws {
        let root = URL(fileURLWithPath: folder).resolvingSymlinksInPath().standardizedFileURL.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw StaticFilesError(message: "the static files folder '\(folder)' does not exist or is not a folder")
        }
        var entries: [String: Entry] = [:]
        var total = 0
        let walker = FileManager.default.enumerator(atPath: root)
        while let relative = walker?.nextObject() as? String {
            let path = root + "/" + relative
            // Resolve links: a file is served only if its real location is inside the folder.
            let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
            guard real.hasPrefix(root + "/") else {
                skipped(relative, "it resolves outside the folder")
                continue
            }
            var directory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: real, isDirectory: &directory), !directory.boolValue else {
                continue
            }
            // Hidden files stay hidden however they are reached: by their own name, or through a link
            // whose name is plain (`notes.txt -> .env`), so the real path is checked too.
            let realRelative = real.dropFirst(root.count + 1)
            guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }),
                !realRelative.split(separator: "/").contains(where: { $0.hasPrefix(".") })
            else {
                if !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
                    skipped(relative, "it links to a hidden file")
                }
                continue
            }
            guard let data = FileManager.default.contents(atPath: real) else {
                skipped(relative, "it cannot be read")
                continue
            }
            guard data.count <= limits.maxFileSize, total + data.count <= limits.maxTotalSize else {
                skipped(relative, "it is over the size limit")
                continue
            }
            total += data.count
            entries[relative] = try Self.entry(for: data, named: relative, cacheControl: cacheControl)
        }
        self.entries = entries
    }

    /// Whether there is a file at `path` (relative to the folder, decoded) to serve.
    public func has(_ path: String) -> Bool { entries[path] != nil }

    /// The answer for the file at `path` (relative to the folder, decoded): 200, 304 or 404.
    public func respond(to request: borrowing RequestView, path: String) -> Response {
        guard let entry = entries[path] else {
            return .error(.notFound, "no static file at \(Request.pathText(request.pathSegments))")
        }
        return entry.response(ifNoneMatch: request.header("If-None-Match"))
    }

    /// The files whose request target under `prefix` is their path as it stands — only unreserved
    /// characters (RFC 3986 §2.3) in non-empty segments — keyed by that target (`/static/forms.css`).
    /// Such a target has nothing to decode, so finding it here is finding what `respond` would.
    func entries(byTargetUnder prefix: String) -> [String: Entry] {
        var byTarget: [String: Entry] = [:]
        for (path, entry) in entries where Self.isPlain(path) { byTarget[prefix + "/" + path] = entry }
        return byTarget
    }

    private static func isPlain(_ path: String) -> Bool {
        path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { segment in
            !segment.isEmpty
                && segment.utf8.allSatisfy { byte in
                    switch byte {
                    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                        UInt8(ascii: "~"):
                        true
                    default: false
                    }
                }
        }
    }

    private static func entry(for data: Data, named name: String, cacheControl: String) throws -> Entry {
        let etag = "\"" + String(contentHash(data), radix: 16) + "-" + String(data.count, radix: 16) + "\""
        let headers: HTTPHeaders = [
            "Content-Type": MediaTypes.forPath(name),
            "ETag": etag,
            "Cache-Control": cacheControl,
            "X-Content-Type-Options": "nosniff",
        ]
        var notModifiedHeaders = headers
        notModifiedHeaders["Content-Type"] = nil
        return Entry(
            full: try PreparedResponse(
                Response(status: .ok, headers: headers, body: ResponseBody(bytes: [UInt8](data)))),
            notModified: try PreparedResponse(Response(status: .notModified, headers: notModifiedHeaders)),
            etag: etag)
    }

    /// `If-None-Match` uses the weak comparison (RFC 9110 §13.1.2): `W/` prefixes are ignored.
    static func matches(_ condition: String, _ etag: String) -> Bool {
        let bare = { (tag: Substring) -> Substring in tag.hasPrefix("W/") ? tag.dropFirst(2) : tag }
        let ours = bare(etag[...])
        return condition.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingASCIIWhitespace()
            return tag == "*" || bare(tag[...]) == ours
        }
    }

    /// 64-bit FNV-1a: a content fingerprint for the ETag, not a security boundary.
    static func contentHash(_ data: Data) -> UInt64 {
        data.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
    }
}

/// A static files folder that cannot be served.
public struct StaticFilesError: Error, CustomStringConvertible {
    /// What is wrong, naming the folder.
    public let message: String
    public var description: String { message }
}
