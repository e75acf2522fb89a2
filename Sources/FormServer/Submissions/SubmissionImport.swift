import FormEngine
import FormModel
import FormStore
import Foundation

/// A `--submissions` folder of JSON lines (`SubmissionStore`) loaded into a database: `formwright
/// import DIR`. Each line becomes a submission under an id made from its time and a digest of the line,
/// so an import run twice, or stopped and run again, keeps each line once. Files come from the folder.
/// What a form says no store keeps (passwords, `store: false`: `KeptRows`) is left out,
/// as folders written before those were left out may hold them.
public enum SubmissionImport {
    /// What an import did.
    public struct Outcome: Sendable {
        /// Lines kept now.
        public var imported = 0
        /// Lines kept by an earlier import.
        public var present = 0
        /// Lines that could not be read, each with its file and line number and why.
        public var problems: [String] = []
    }

    /// Loads every `*.jsonl` file of `folder` into `database`, a few hundred submissions at a time.
    public static func run(
        folder: String, forms: FormCatalog, into database: any SubmissionDatabase
    ) async throws
        -> Outcome
    {
        var outcome = Outcome()
        // Two lines alike are one submission written twice: kept once, as a second import would.
        var seen = Set<SubmissionID>()
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".jsonl") }
        for name in names.sorted() {
            let path = (folder as NSString).appendingPathComponent(name)
            guard let text = FileManager.default.contents(atPath: path) else {
                outcome.problems.append("\(path): cannot be read")
                continue
            }
            var batch: [StoredSubmission] = []
            for (index, line) in text.split(separator: UInt8(ascii: "\n")).enumerated() {
                do {
                    let submission = try submission(Array(line), folder: folder, forms: forms)
                    let kept = try database.submission(formID: submission.formID, id: submission.id) != nil
                    if !seen.insert(submission.id).inserted || kept {
                        outcome.present += 1
                    } else {
                        batch.append(submission)
                    }
                } catch {
                    outcome.problems.append("\(path):\(index + 1): \(error)")
                }
                if batch.count == 500 { outcome.imported += try await keep(&batch, in: database) }
            }
            outcome.imported += try await keep(&batch, in: database)
        }
        return outcome
    }

    /// Keeps `batch` together (they share commits) and empties it; returns how many were kept.
    private static func keep(
        _ batch: inout [StoredSubmission], in database: any SubmissionDatabase
    ) async throws
        -> Int
    {
        let submissions = batch
        batch.removeAll()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for submission in submissions { group.addTask { try await database.keep(submission) } }
            try await group.waitForAll()
        }
        return submissions.count
    }

    /// Why a line is not imported.
    struct LineError: Error, CustomStringConvertible {
        let description: String
    }

    /// The submission a line of the folder holds.
    static func submission(_ line: [UInt8], folder: String, forms: FormCatalog) throws -> StoredSubmission {
        guard case .object(let members) = try JSONValue(parsing: line) else {
            throw LineError(description: "not a JSON object")
        }
        let value = { (key: String) in members.first { $0.0 == key }?.1 }
        guard case .string(let received)? = value("received"), let milliseconds = Self.milliseconds(received) else {
            throw LineError(description: "no \"received\" time such as 2026-11-22T21:30:05.123Z")
        }
        guard case .string(let formID)? = value("form"), !formID.isEmpty else {
            throw LineError(description: "no \"form\"")
        }
        guard let parameters = value("httpParameters"), let formValues = value("formValues") else {
            throw LineError(description: "no \"httpParameters\" or \"formValues\"")
        }
        let unkept = forms.forms[formID].map { KeptRows($0).leftOut } ?? []
        var files: [StoredFile] = []
        if case .array(let entries)? = value("files") {
            for entry in entries { files.append(try file(entry, folder: folder)) }
        }
        return StoredSubmission(
            id: SubmissionID(milliseconds: milliseconds, derivedFrom: APIKey.sha256(line)), formID: formID,
            received: received, httpParameters: Verdict.text(parameters, leavingOut: unkept),
            formValues: Verdict.text(formValues, leavingOut: unkept),
            files: files.filter { !unkept.contains($0.tag.prefix { $0 != "[" }.description) },
            answers: forms.forms[formID].map { ChartedRows(form: $0).answers(of: parameters, leavingOut: unkept) } ?? []
        )
    }

    /// A file entry's bytes, read from `stored` under `folder`, which must stay inside it.
    private static func file(_ entry: JSONValue, folder: String) throws -> StoredFile {
        guard case .object(let members) = entry else { throw LineError(description: "a file that is no object") }
        let text = { (key: String) -> String in
            if case .string(let value)? = members.first(where: { $0.0 == key })?.1 { return value }
            return ""
        }
        let stored = text("stored")
        guard !stored.isEmpty, !stored.hasPrefix("/"), !stored.split(separator: "/").contains("..") else {
            throw LineError(description: "a file stored at '\(stored)', outside the folder")
        }
        let path = (folder as NSString).appendingPathComponent(stored)
        guard let bytes = FileManager.default.contents(atPath: path) else {
            throw LineError(description: "the file \(path) is missing")
        }
        return StoredFile(
            tag: text("tag"), filename: text("filename"), contentType: text("contentType"), bytes: Array(bytes))
    }

    /// The milliseconds since 1970 of a time the folder wrote (`2026-11-22T21:30:05.123Z`).
    private static func milliseconds(_ text: String) -> UInt64? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let date = formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text),
            date.timeIntervalSince1970 >= 0
        else { return nil }
        return UInt64((date.timeIntervalSince1970 * 1000).rounded())
    }
}
