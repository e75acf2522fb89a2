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

/// Valid submissions kept in a database, each under an id (`SubmissionID`), its files with it, as
/// `KeptRows` says, and its delivery jobs in the same transaction (`DeliveryJobs`).
struct DatabaseKeeper: SubmissionKeeper {
    let database: any SubmissionDatabase
    /// The delivery jobs of each form that delivers, by form id.
    var deliveries: [String: DeliveryJobs] = [:]
    /// The worker that sends them, woken when a submission brings jobs.
    var worker: DeliveryWorker?
    /// The rows each form's submissions are counted under, by form id (`ChartedRows`).
    var charted: [String: ChartedRows] = [:]

    /// The database's answer to a query, waited for off the server's threads: reaching a database that
    /// is away can take until libpq's connect timeout.
    func checkReady() async throws {
        try await Blocking.run { [database] in Result { () throws(StoreError) in try database.ping() } }.get()
    }

    func store(_ verdict: Verdict, formID: String) async throws -> SubmissionID? {
        let received = Date()
        let id = SubmissionID.next(milliseconds: received.milliseconds)
        let kept = KeptRows(verdict.form)
        let jobs = deliveries[formID]
        let charted = charted[formID]
        // Off the Swift pool when a hash must be made: scrypt takes tens of milliseconds.
        let submission =
            kept.hashed.isEmpty
            ? Self.submission(
                verdict, kept, id: id, formID: formID, received: received, version: 1, jobs: jobs, charted: charted)
            : await Blocking.run {
                Self.submission(
                    verdict, kept, id: id, formID: formID, received: received, version: 1, jobs: jobs,
                    charted: charted)
            }
        try await database.keep(submission)
        if !submission.deliveries.isEmpty { worker?.wake() }
        return id
    }

    /// Saves `verdict`, an edit of the kept submission `kept`, as its next version, unless it was saved
    /// again since `kept` was read (`Revision`). Returns once the save is durable.
    func revise(_ verdict: Verdict, of kept: StoredSubmission) async throws(StoreError) -> Revision {
        let database = database
        let jobs = deliveries[kept.formID]
        let charted = charted[kept.formID]
        let revision = try await Blocking.run {
            Result { () throws(StoreError) in
                let edit = Self.submission(
                    verdict, KeptRows(verdict.form), id: kept.id, formID: kept.formID, received: Date(),
                    version: kept.version + 1, jobs: jobs, charted: charted)
                return try database.revise(edit, from: kept.version)
            }
        }.get()
        if case .saved = revision, jobs?.isEmpty == false { worker?.wake() }
        return revision
    }

    /// What a store keeps of `verdict`: its payloads and files as `kept` says, under `id` at `version`,
    /// with the delivery jobs `jobs` makes of it, counted under its answers to the `charted` rows.
    private static func submission(
        _ verdict: Verdict, _ kept: KeptRows, id: SubmissionID, formID: String, received: Date, version: Int,
        jobs: DeliveryJobs?, charted: ChartedRows?
    ) -> StoredSubmission {
        let files = SubmissionStore.uploads(of: verdict).filter { !kept.leftOut.contains($0.tag) }.map { upload in
            StoredFile(
                tag: upload.tag, filename: upload.file.filename, contentType: upload.file.contentType,
                bytes: upload.file.bytes)
        }
        let payloads = verdict.keptPayloads(kept)
        let time = SubmissionStore.Files.timestamp(received).iso
        return StoredSubmission(
            id: id, formID: formID, received: time, httpParameters: payloads.httpParameters,
            formValues: payloads.formValues, files: files,
            deliveries: jobs?.jobs(
                verdict, id: id, version: version, httpParameters: payloads.httpParameters,
                at: (received.milliseconds, time)) ?? [],
            answers: charted?.answers(of: payloads.parameters, leavingOut: kept.leftOut) ?? [])
    }
}

extension Date {
    /// Milliseconds since 1970, rounded down: how ids, due times and expiries count time.
    var milliseconds: UInt64 { UInt64((timeIntervalSince1970 * 1000).rounded(.down)) }
}

/// Blocking work (a database's calls, a hash) run on a thread of Dispatch's, not the Swift pool's nor
/// the server's, and awaited.
enum Blocking {
    static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { done in DispatchQueue.global().async { done.resume(returning: work()) } }
    }
}
