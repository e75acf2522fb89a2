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
}

extension SubmissionStore: SubmissionKeeper {
    func store(_ verdict: Verdict, formID: String) async throws -> SubmissionID? {
        try await keep(verdict, formID: formID, received: Date())
        return nil
    }
}

/// Valid submissions kept in a database, each under an id (`SubmissionID`), its files with it.
/// A password row's value is left out: a store is read by people and programs that must never see it.
struct DatabaseKeeper: SubmissionKeeper {
    let database: SQLiteSubmissionStore

    func store(_ verdict: Verdict, formID: String) async throws -> SubmissionID? {
        let received = Date()
        let id = SubmissionID(milliseconds: UInt64((received.timeIntervalSince1970 * 1000).rounded(.down)))
        let secret = Set(verdict.form.rows.filter { $0.row.type == .password }.compactMap(\.row.tag))
        let files = SubmissionStore.uploads(of: verdict).map { upload in
            StoredFile(
                tag: upload.tag, filename: upload.file.filename, contentType: upload.file.contentType,
                bytes: upload.file.bytes)
        }
        try await database.keep(
            StoredSubmission(
                id: id, formID: formID, received: SubmissionStore.Files.timestamp(received).iso,
                httpParameters: Self.text(verdict.httpParameters, leavingOut: secret),
                formValues: Self.text(verdict.formValues, leavingOut: secret), files: files))
        return id
    }

    /// `payload` as JSON text without the keys `leftOut`.
    private static func text(_ payload: JSONValue, leavingOut leftOut: Set<String>) -> String {
        guard case .object(let members) = payload, !leftOut.isEmpty else {
            return String(decoding: payload.bytes, as: UTF8.self)
        }
        return String(decoding: JSONValue.object(members.filter { !leftOut.contains($0.0) }).bytes, as: UTF8.self)
    }
}
