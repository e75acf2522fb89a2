import Dispatch
import FormEngine
import FormModel
import FormStore
import Foundation

/// Where the valid submissions of forms without a Swift handler are kept: a database
/// (`DatabaseKeeper`, `--store`) or a folder of JSON lines (`SubmissionStore`, `--submissions`).
protocol SubmissionKeeper: Sendable {
    /// Keeps what `verdict` judged valid for form `formID`, returning once it is durable, with its id
    /// when the keeper gives submissions one.
    func store(_ verdict: Verdict, formID: String) async throws -> SubmissionID?

    /// Throws unless the keeper can keep submissions now, for `/readyz`.
    func checkReady() async throws
}

extension SubmissionStore: SubmissionKeeper {
    func store(_ verdict: Verdict, formID: String) async throws -> SubmissionID? {
        try await keep(verdict, formID: formID, received: Date())
        return nil
    }

    /// Its files are opened at start and stay open.
    func checkReady() async throws {}
}

extension Verdict {
    /// The tags of the rows whose values no store keeps (`CompiledForm.unkeptTags`).
    var unkeptTags: Set<String> { form.unkeptTags }

    /// Both payloads as a store keeps them: `unkeptTags` left out, and each of `hashedTags` a salted
    /// hash (`PasswordHash`, the same in both) in place of its text. Hashing takes tens of
    /// milliseconds: a keeper calls this on a queue of its own.
    func keptPayloads() -> (httpParameters: String, formValues: String) {
        let payloads = payloads()
        let unkept = unkeptTags
        let hashed = form.hashedTags
        guard !hashed.isEmpty, case .object(let parameters) = payloads.httpParameters,
            case .object(let values) = payloads.formValues
        else {
            return (
                Verdict.text(payloads.httpParameters, leavingOut: unkept),
                Verdict.text(payloads.formValues, leavingOut: unkept)
            )
        }
        var hashes: [String: String] = [:]
        for case (let tag, .string(let text)) in parameters where hashed.contains(tag) {
            hashes[tag] = PasswordHash.make(text)
        }
        let hashedParameters = parameters.map { tag, value in (tag, hashes[tag].map(JSONValue.string) ?? value) }
        let hashedValues = values.map { tag, value in (tag, hashes[tag].map(JSONValue.string) ?? value) }
        return (
            Verdict.text(.object(hashedParameters), leavingOut: unkept),
            Verdict.text(.object(hashedValues), leavingOut: unkept)
        )
    }

    /// `payload` as JSON text without the keys `leftOut`.
    static func text(_ payload: JSONValue, leavingOut leftOut: Set<String>) -> String {
        guard case .object(let members) = payload, !leftOut.isEmpty else {
            return String(decoding: payload.bytes, as: UTF8.self)
        }
        return String(decoding: JSONValue.object(members.filter { !leftOut.contains($0.0) }).bytes, as: UTF8.self)
    }
}

/// Valid submissions kept in a database, each under an id (`SubmissionID`), its files with it; the
/// values of `Verdict.unkeptTags` left out.
struct DatabaseKeeper: SubmissionKeeper {
    let database: any SubmissionDatabase

    /// The database's answer to a query, waited for off the server's threads: reaching a database that
    /// is away can take until libpq's connect timeout.
    func checkReady() async throws {
        try await Blocking.run { [database] in Result { () throws(StoreError) in try database.ping() } }.get()
    }

    func store(_ verdict: Verdict, formID: String) async throws -> SubmissionID? {
        let received = Date()
        let id = SubmissionID.next(milliseconds: UInt64((received.timeIntervalSince1970 * 1000).rounded(.down)))
        let secret = verdict.unkeptTags
        let files = SubmissionStore.uploads(of: verdict).filter { !secret.contains($0.tag) }.map { upload in
            StoredFile(
                tag: upload.tag, filename: upload.file.filename, contentType: upload.file.contentType,
                bytes: upload.file.bytes)
        }
        // Off the Swift pool when a hash must be made: scrypt takes tens of milliseconds.
        let payloads =
            verdict.form.hashedTags.isEmpty
            ? verdict.keptPayloads() : await Blocking.run { verdict.keptPayloads() }
        try await database.keep(
            StoredSubmission(
                id: id, formID: formID, received: SubmissionStore.Files.timestamp(received).iso,
                httpParameters: payloads.httpParameters, formValues: payloads.formValues, files: files))
        return id
    }
}

extension CompiledForm {
    /// The tags of the rows whose values no store keeps: passwords, and rows that say `store: false`,
    /// with the multivalued sections whose items are such rows. A store is read by people and programs
    /// that must never see them.
    var unkeptTags: Set<String> {
        let unkept = { (row: Row) in (row.type == .password && !row.storeHashed) || !row.store }
        var tags = Set(rows.filter { unkept($0.row) }.compactMap(\.row.tag))
        for section in sections {
            // An item's hash is not kept: a list of hashes checks nothing.
            if let tag = section.section.multivaluedTag, let item = section.item,
                unkept(item.row) || item.row.type == .password || item.row.storeHashed
            {
                tags.insert(tag)
            }
        }
        return tags
    }

    /// The tags of the rows whose values a store keeps as salted hashes (`store: hash`).
    var hashedTags: Set<String> {
        Set(rows.filter { $0.row.storeHashed && $0.row.store }.compactMap(\.row.tag)).subtracting(unkeptTags)
    }
}

/// Blocking work (a database's calls, a hash) run on a thread of Dispatch's, not the Swift pool's nor
/// the server's, and awaited.
enum Blocking {
    static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { done in DispatchQueue.global().async { done.resume(returning: work()) } }
    }
}
