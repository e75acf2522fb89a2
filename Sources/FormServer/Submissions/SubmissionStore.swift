import Dispatch
import FormEngine
import FormModel
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Valid submissions kept on disk, for a server run without Swift handlers (`formwright serve
/// --submissions DIR`): the store of DESIGN.md's "life of a submission".
///
/// Each form's submissions are JSON lines in `<folder>/<form id>.jsonl`, one line per submission:
///
/// ```json
/// {"received":"2026-11-22T21:30:05.123Z","form":"event","httpParameters":{…},"formValues":{…}}
/// ```
///
/// with `"files": [{"tag", "filename", "contentType", "size", "stored"}]` after them when the
/// submission carried uploads: each file's bytes are in `<folder>/<form id>/`, under a random name
/// (`stored`, relative to the folder), never under the name the browser gave.
///
/// A submission is answered as kept only once it is on disk: its files and its line are each written
/// with one `write(2)` (the line on a file opened for appending, so concurrent lines never interleave)
/// and flushed with `fdatasync(2)`. Writes run one at a time on a queue of their own, never on a
/// server thread: the request waits suspended meanwhile.
public final class SubmissionStore: Sendable {
    /// The folder the files are in.
    public let folder: String
    private let queue = DispatchQueue(label: "formwright.submissions")

    /// A store writing into `folder`, made (with its parents) when missing. Throws when the folder
    /// cannot be made or written to: better a server that does not start than one that loses
    /// submissions it has answered as sent.
    public init(folder: String) throws(SubmissionStoreError) {
        self.folder = folder
        try Self.makeFolder(folder)
        // A file made and removed proves the folder writable now (a read-only mount, a wrong owner).
        let probe = "\(folder)/.formwright-probe-\(getpid())"
        let descriptor = open(probe, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .init("cannot write in \(folder): \(Self.lastError())") }
        close(descriptor)
        unlink(probe)
    }

    /// Writes `verdict`'s payloads (and its uploads) as a line of `<form id>.jsonl`, at `received`.
    public func keep(_ verdict: Verdict, formID: String, received: Date = Date()) async throws(SubmissionStoreError) {
        let result: Result<Void, SubmissionStoreError> = await withCheckedContinuation { continuation in
            queue.async {
                do throws(SubmissionStoreError) {
                    try self.keepNow(verdict, formID: formID, received: received)
                    continuation.resume(returning: .success(()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        try result.get()
    }

    /// `keep`, on the calling thread.
    func keepNow(_ verdict: Verdict, formID: String, received: Date) throws(SubmissionStoreError) {
        let stamp = Self.timestamp(received)
        var files: [JSONValue] = []
        var written: [String] = []
        do throws(SubmissionStoreError) {
            for (tag, file) in Self.uploads(of: verdict) {
                if written.isEmpty { try Self.makeFolder("\(folder)/\(formID)") }
                let stored = "\(formID)/\(stamp.compact)-\(Self.randomHex())\(Self.fileExtension(of: file.filename))"
                try Self.put(file.bytes, to: "\(folder)/\(stored)", appending: false)
                written.append(stored)
                files.append(
                    .object([
                        ("tag", .string(tag)), ("filename", .string(file.filename)),
                        ("contentType", .string(file.contentType)), ("size", .integer(file.size)),
                        ("stored", .string(stored)),
                    ]))
            }
            var members: [(String, JSONValue)] = [
                ("received", .string(stamp.iso)), ("form", .string(formID)),
                ("httpParameters", verdict.httpParameters), ("formValues", verdict.formValues),
            ]
            if !files.isEmpty { members.append(("files", .array(files))) }
            // JSON escapes every control character, so the line holds no newline but its last.
            try Self.put(JSONValue.object(members).bytes + [0x0A], to: "\(folder)/\(formID).jsonl", appending: true)
        } catch {
            // A submission is kept whole or not at all: files without their line would be orphans.
            for stored in written { unlink("\(folder)/\(stored)") }
            throw error
        }
    }

    /// Every uploaded file of the submission with the tag it came under (`tag` or `tag[n]` for an item
    /// of a multivalued section), in page order.
    static func uploads(of verdict: Verdict) -> [(tag: String, file: UploadedFile)] {
        var uploads: [(tag: String, file: UploadedFile)] = []
        for section in verdict.form.sections where !verdict.sectionHidden[section.index] {
            if let tag = section.section.multivaluedTag {
                for (position, value) in (verdict.items[section.index] ?? []).enumerated() {
                    if case .file(let file) = value { uploads.append(("\(tag)[\(position)]", file)) }
                }
                continue
            }
            for index in section.rows where !verdict.rowHidden[index] {
                if case .file(let file)? = verdict.values[index], let tag = verdict.form.rows[index].row.tag {
                    uploads.append((tag, file))
                }
            }
        }
        return uploads
    }

    /// Writes `bytes` to `path` and flushes them to disk: appended to the file (made when missing), or
    /// as a new file that must not exist yet.
    private static func put(_ bytes: [UInt8], to path: String, appending: Bool) throws(SubmissionStoreError) {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (appending ? O_APPEND : O_EXCL)
        let descriptor = open(path, flags, 0o640)
        guard descriptor >= 0 else { throw .init("cannot open \(path): \(lastError())") }
        defer { close(descriptor) }
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + done, $0.count - done) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw .init("cannot write \(path): \(lastError())") }
            done += count
        }
        #if os(Linux)
            let flushed = fdatasync(descriptor)
        #else
            let flushed = fsync(descriptor)
        #endif
        guard flushed == 0 else { throw .init("cannot flush \(path) to disk: \(lastError())") }
    }

    /// Makes `path` and its missing parents.
    private static func makeFolder(_ path: String) throws(SubmissionStoreError) {
        var made = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") where part != "." {
            made += (made.isEmpty || made.hasSuffix("/") ? "" : "/") + part
            if mkdir(made, 0o750) != 0, errno != EEXIST {
                throw .init("cannot make the folder \(made): \(lastError())")
            }
        }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & mode_t(S_IFMT) == mode_t(S_IFDIR) else {
            throw .init("\(path) is not a folder")
        }
    }

    /// `2026-11-22T21:30:05.123Z`, and `20261122T213005123Z` for file names.
    static func timestamp(_ date: Date) -> (iso: String, compact: String) {
        let milliseconds = Int((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let fraction = milliseconds % 1000
        let millis = fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)"
        let day = "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
        let time = "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
        return (
            "\(day)T\(time).\(millis)Z",
            "\(day.filter { $0 != "-" })T\(time.filter { $0 != ":" })\(millis)Z"
        )
    }

    /// 64 random bits in hex: a file name no client can choose or guess.
    private static func randomHex() -> String {
        let value = UInt64.random(in: .min ... .max)
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The browser's file name's extension (`.png`) when it is short and plain, so the file opens with
    /// the right program; nothing else of that name reaches the disk.
    static func fileExtension(of filename: String) -> String {
        guard let dot = filename.lastIndex(of: "."), dot != filename.startIndex else { return "" }
        let candidate = filename[filename.index(after: dot)...]
        guard (1...10).contains(candidate.count), candidate.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
        else { return "" }
        return "." + candidate.lowercased()
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}

/// Why a submission could not be kept, or the store not opened.
public struct SubmissionStoreError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, naming the file.
    public let description: String

    init(_ description: String) { self.description = description }
}
