import Dispatch
import FormEngine
import FormModel
import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Valid submissions kept on disk, for a server run without Swift handlers (`formwright serve
/// --submissions DIR`): the store of docs/design.md's "The life of a submission".
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
/// and flushed with `fdatasync(2)`, as is the folder when a file is new in it. A write that fails is
/// undone (a line cut short is cut off, a file removed), so the next submission starts a whole line.
/// Writes run one at a time on a queue of their own, never on a server thread: the request waits
/// suspended meanwhile, at most `deadline`, and no more than `backlog` wait at once.
public final class SubmissionStore: Sendable {
    /// The folder the files are in.
    public let folder: String
    /// How long a submission waits for its write before it is answered as not kept.
    public let deadline: Duration
    /// How many submissions may wait for the disk at once; more are answered as not kept at once.
    public let backlog: Int
    /// The writes, one at a time (internal: a test holds it up to see the deadline and the backlog act).
    let queue = DispatchQueue(label: "formwright.submissions")
    /// Writes queued or under way.
    private let waiting = Atomic<Int>(0)
    /// The submissions waiting for their answer, by ticket, with when they began (monotonic ns). Whoever
    /// takes one out answers it: its write, or the watchdog once its deadline passed.
    private let pending = Mutex<[UInt64: (began: UInt64, answer: Answer)]>([:])
    private let tickets = Atomic<UInt64>(0)
    /// Answers the submissions past their deadline, twice a second: one timer for the store, not one
    /// per submission (which would hold each submission's closure for the whole deadline).
    private let watchdog: TimerHandle

    /// Where a repaired file or a write that ended after its deadline is reported.
    private let logger: Logger

    /// A store writing into `folder`, made (with its parents) when missing, for the forms `forms`.
    /// Throws when the folder cannot be made or written to, or holds one of their files that cannot be
    /// appended to: better a server that does not start than one that loses submissions it has
    /// answered as sent.
    public init(
        folder: String, forms: [String] = [], deadline: Duration = .seconds(10), backlog: Int = 256,
        logger: Logger = Logger(label: "formwright")
    ) throws(SubmissionStoreError) {
        self.folder = folder
        self.deadline = deadline
        self.backlog = backlog
        self.logger = logger
        try Files.makeFolders(folder)
        try Files.checkWritable(folder, forms: forms)
        let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "formwright.submissions.deadline"))
        watchdog = TimerHandle(source: source)
        source.schedule(deadline: .now() + .milliseconds(500), repeating: .milliseconds(500))
        source.setEventHandler { [weak self] in self?.answerLate() }
        source.resume()
    }

    deinit { watchdog.source.cancel() }

    /// How many writes are queued or under way.
    var waitingCount: Int { waiting.load(ordering: .relaxed) }

    /// Writes `verdict`'s payloads (and its uploads) as a line of `<form id>.jsonl`, at `received`.
    /// Throws when the write failed (and was undone), or did not end within `deadline`, or `backlog`
    /// submissions were waiting already. A write past its deadline may still land: the client, told it
    /// was not kept, may send it again, and the folder then holds it twice.
    public func keep(_ verdict: Verdict, formID: String, received: Date = Date()) async throws(SubmissionStoreError) {
        guard waiting.add(1, ordering: .relaxed).newValue <= backlog else {
            waiting.subtract(1, ordering: .relaxed)
            throw .init("\(backlog) submissions are waiting for the disk already")
        }
        let ticket = tickets.add(1, ordering: .relaxed).newValue
        let result: Result<Void, SubmissionStoreError> = await withCheckedContinuation { answer in
            pending.withLock { $0[ticket] = (DispatchTime.now().uptimeNanoseconds, answer) }
            queue.async {
                defer { self.waiting.subtract(1, ordering: .relaxed) }
                let outcome: Result<Void, SubmissionStoreError>
                do throws(SubmissionStoreError) {
                    try self.keepNow(verdict, formID: formID, received: received)
                    outcome = .success(())
                } catch {
                    outcome = .failure(error)
                }
                guard let waiter = self.pending.withLock({ $0.removeValue(forKey: ticket) }) else {
                    // Its deadline answered it already, as not kept.
                    self.logLate(outcome, formID: formID)
                    return
                }
                waiter.answer.resume(returning: outcome)
            }
        }
        try result.get()
    }

    /// Answers every submission waiting longer than `deadline` as not kept (its write may still land).
    private func answerLate() {
        let (seconds, attoseconds) = deadline.components
        let limit = UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
        let now = DispatchTime.now().uptimeNanoseconds
        let late = pending.withLock { pending in
            let tickets = pending.filter { now &- $0.value.began > limit }.map(\.key)
            return tickets.compactMap { pending.removeValue(forKey: $0)?.answer }
        }
        for answer in late {
            answer.resume(returning: .failure(.init("the disk did not take the submission within \(deadline)")))
        }
    }

    /// Reports the end of a write whose submission was answered as not kept at its deadline.
    private func logLate(_ outcome: Result<Void, SubmissionStoreError>, formID: String) {
        switch outcome {
        case .success:
            logger.warning(
                "a submission answered as not kept was written after its deadline: sent again, it is kept twice",
                metadata: ["form": "\(formID)"])
        case .failure(let error):
            logger.error(
                "a submission answered as not kept failed after its deadline",
                metadata: ["form": "\(formID)", "error": "\(error)"])
        }
    }

    /// `keep`, on the calling thread.
    func keepNow(_ verdict: Verdict, formID: String, received: Date) throws(SubmissionStoreError) {
        let stamp = Files.timestamp(received)
        var files: [JSONValue] = []
        var written: [String] = []
        let kept = KeptRows(verdict.form)
        do throws(SubmissionStoreError) {
            for (tag, file) in Self.uploads(of: verdict) where !kept.leftOut.contains(tag) {
                if written.isEmpty { try Files.makeFolder(named: formID, in: folder) }
                let stored = "\(formID)/\(stamp.compact)-\(Files.randomHex())\(Files.fileExtension(of: file))"
                try Files.create("\(folder)/\(stored)", holding: file.bytes)
                written.append(stored)
                files.append(
                    .object([
                        ("tag", .string(tag)), ("filename", .string(file.filename)),
                        ("contentType", .string(file.contentType)), ("size", .integer(file.size)),
                        ("stored", .string(stored)),
                    ]))
            }
            // Both payloads come from the verdict's one-walk writer, the bytes a JSON client is sent:
            // `{"httpParameters":…,"formValues":…}`, opened here to put the time and form first.
            var line = JSONValue.object([("received", .string(stamp.iso)), ("form", .string(formID))]).bytes
            line.removeLast()  // its `}`
            line.append(UInt8(ascii: ","))
            if kept.keepsAll {
                let payloads = verdict.payloadJSONBytes
                line.append(contentsOf: payloads[1..<(payloads.count - 1)])
            } else {
                // Passwords and rows that say `store: false` left out, rows that say `store: hash` hashed.
                let payloads = verdict.keptPayloads(kept)
                line.append(contentsOf: #""httpParameters":"#.utf8)
                line.append(contentsOf: payloads.httpParameters.utf8)
                line.append(contentsOf: #","formValues":"#.utf8)
                line.append(contentsOf: payloads.formValues.utf8)
            }
            if !files.isEmpty {
                line.append(contentsOf: #","files":"#.utf8)
                JSONValue.array(files).write(to: &line)
            }
            // JSON escapes every control character, so the line holds no newline but its last.
            line.append(contentsOf: "}\n".utf8)
            let path = "\(folder)/\(formID).jsonl"
            switch try Files.append(line, to: path, in: folder) {
            case .whole: break
            case .newlineAdded:
                logger.notice("its last record had no newline: one was added", metadata: ["file": "\(path)"])
            case .cutOff(let bytes):
                logger.warning(
                    "cut off the unfinished line a failed write or a crash left (never answered as kept)",
                    metadata: ["file": "\(path)", "bytes": "\(bytes)"])
            }
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
}

/// How a waiting submission is answered: the result of its write, or of its deadline.
private typealias Answer = CheckedContinuation<Result<Void, SubmissionStoreError>, Never>

/// Why a submission could not be kept, or the store not opened.
public struct SubmissionStoreError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, naming the file.
    public let description: String

    init(_ description: String) { self.description = description }
}
