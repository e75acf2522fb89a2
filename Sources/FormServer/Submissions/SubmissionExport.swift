import FormModel
import FormStore

/// A form's kept submissions written out a line each, as JSON lines or as CSV (`SubmissionTable`):
/// one writer for `formwright submissions export` and the API's exports, so both give the same file.
public struct SubmissionExport: Sendable {
    /// `nil` for JSON lines.
    private let table: SubmissionTable?

    /// `{"id","received","version","httpParameters","formValues"}` a line (`"edited"` too, once edited).
    public static let jsonLines = SubmissionExport(table: nil)

    /// A header line, then a row a submission, in `form`'s columns.
    public static func csv(_ form: CompiledForm) -> SubmissionExport {
        SubmissionExport(table: SubmissionTable(form: form))
    }

    /// What comes before the first submission: CSV's header line.
    public var header: String { table.map { SubmissionTable.csvLine($0.header) } ?? "" }

    /// `submission`'s line, its line break included.
    public func line(_ submission: StoredSubmission) -> String {
        guard let table else { return SubmissionJSON.item(submission, files: nil) + "\n" }
        return SubmissionTable.csvLine(
            table.row(
                id: submission.id.description, received: submission.received, version: submission.version,
                edited: submission.edited, httpParameters: submission.httpParameters)
        )
    }
}
