import Dispatch
import FormModel
import FormStore
import Foundation
import HTTPServer
import Logging

/// `/api/forms/{id}/submissions…`: the submissions a database keeps, listed, read, exported and
/// erased over HTTP by API key (`Authorization: Bearer fwk_…`, `APIKey`). Every answer is JSON but a
/// file's and an export's; every refusal is JSON `{"errors":[…]}` with a code: `401` for a missing,
/// wrong or revoked key (with `WWW-Authenticate`), `403` for a key without the scope or the form, `404`
/// for a form or submission that is not there (a submission of another form is not there), `400` for a
/// parameter that is wrong, `503` while the database does not answer.
struct SubmissionAPI: Sendable {
    /// The store; nil when the server keeps none (`--store none`, or a folder of JSON lines).
    let database: (any SubmissionDatabase)?
    /// The forms served, by id: a form that is not served has no submissions here.
    let forms: [String: CompiledForm]
    let logger: Logger

    /// How many submissions a page lists unless `limit` says, and at most.
    static let defaultLimit = 100
    static let largestLimit = 1_000

    func add(to routes: inout RouterBuilder) {
        let base = "/api/forms/{id}/submissions"
        routes.on(.get, base) { request in await answer(request, .read) { try list(request, $0, $1) } }
        routes.on(.get, base + ".jsonl") { request in await answer(request, .export) { try export($0, $1, csv: false) }
        }
        routes.on(.get, base + ".csv") { request in await answer(request, .export) { try export($0, $1, csv: true) } }
        routes.on(.get, base + "/{sid}") { request in await answer(request, .read) { try one(request, $0, $1) } }
        routes.on(.delete, base + "/{sid}") { request in
            await answer(request, .delete) { try erase(request, $0, $1) }
        }
        routes.on(.get, base + "/{sid}/files/{tag}") { request in
            await answer(request, .read) { try file(request, $0, $1) }
        }
        routes.on(.get, base + "/{sid}/versions") { request in
            await answer(request, .read) { try versions(request, $0, $1) }
        }
        routes.on(.get, base + "/{sid}/versions/{version}/files/{tag}") { request in
            await answer(request, .read) { try versionFile(request, $0, $1) }
        }
    }

    // MARK: - The routes

    /// `GET …/submissions?limit=&cursor=&since=&until=`: a page, newest first, and the next page's
    /// address in `next` (and a `Link` header) while there are more.
    private func list(_ request: Request, _ database: any SubmissionDatabase, _ formID: String) throws -> Response {
        let query = try ListQuery(request.query)
        let page = try database.submissions(formID: formID, in: query.range, limit: query.limit + 1)
        let shown = page.prefix(query.limit)
        var body = #"{"submissions":["#
        body += shown.map { SubmissionJSON.item($0, files: nil) }.joined(separator: ",")
        body += "],"
        var response: Response
        if page.count > query.limit, let last = shown.last {
            let next = SubmissionJSON.path(formID) + "?" + query.next(after: last.id)
            body += #""next":"# + SubmissionJSON.string(next) + "}"
            response = Answers.json(.ok, Array(body.utf8))
            response.headers["Link"] = "<\(next)>; rel=\"next\""
        } else {
            body += #""next":null}"#
            response = Answers.json(.ok, Array(body.utf8))
        }
        return response
    }

    /// `GET …/submissions/{sid}`: one submission, its files listed with their addresses.
    private func one(_ request: Request, _ database: any SubmissionDatabase, _ formID: String) throws -> Response {
        let submission = try stored(request, database, formID)
        return Answers.json(.ok, Array(SubmissionJSON.item(submission, files: submission.files).utf8))
    }

    /// `DELETE …/submissions/{sid}`: erasure, files included; `204`.
    private func erase(_ request: Request, _ database: any SubmissionDatabase, _ formID: String) throws -> Response {
        let id = try submissionID(request, formID)
        guard try database.delete(formID: formID, id: id) else { throw APIProblem.noSubmission(id, formID) }
        logger.notice("submission erased", metadata: ["form": "\(formID)", "id": "\(id)"])
        return Response(status: .noContent)
    }

    /// `GET …/submissions/{sid}/files/{tag}`: a file's bytes, as an attachment that no browser renders.
    private func file(_ request: Request, _ database: any SubmissionDatabase, _ formID: String) throws -> Response {
        let submission = try stored(request, database, formID)
        let tag = request.parameters["tag"] ?? ""
        guard let file = submission.files.first(where: { $0.tag == tag }) else {
            throw APIProblem.notFound("submission \(submission.id) has no file '\(tag)'")
        }
        return Self.attachment(file)
    }

    /// `GET …/submissions/{sid}/versions`: every version of an edited submission, oldest first and the
    /// current one last (one, for a submission never edited), with their files' addresses.
    private func versions(_ request: Request, _ database: any SubmissionDatabase, _ formID: String) throws -> Response {
        let id = try submissionID(request, formID)
        guard let versions = try database.versions(formID: formID, id: id) else {
            throw APIProblem.noSubmission(id, formID)
        }
        let items = versions.map { SubmissionJSON.version($0, of: id, formID: formID) }
        return Answers.json(.ok, Array((#"{"id":"\#(id)","versions":["# + items.joined(separator: ",") + "]}").utf8))
    }

    /// `GET …/submissions/{sid}/versions/{version}/files/{tag}`: a file of one version.
    private func versionFile(
        _ request: Request, _ database: any SubmissionDatabase, _ formID: String
    ) throws
        -> Response
    {
        let id = try submissionID(request, formID)
        let number = request.parameters["version"] ?? ""
        let tag = request.parameters["tag"] ?? ""
        guard let versions = try database.versions(formID: formID, id: id) else {
            throw APIProblem.noSubmission(id, formID)
        }
        guard let version = versions.first(where: { String($0.version) == number }) else {
            throw APIProblem.notFound("submission \(id) has no version '\(number.prefix(20))'")
        }
        guard let file = version.files.first(where: { $0.tag == tag }) else {
            throw APIProblem.notFound("version \(version.version) of submission \(id) has no file '\(tag)'")
        }
        return Self.attachment(file)
    }

    /// `file`'s bytes as an attachment that no browser renders.
    static func attachment(_ file: StoredFile) -> Response {
        Response(
            status: .ok,
            headers: [
                "Content-Type": file.contentType.isEmpty ? "application/octet-stream" : file.contentType,
                "Content-Disposition": SubmissionJSON.attachment(file.filename),
                "X-Content-Type-Options": "nosniff", "Content-Security-Policy": "sandbox", "Cache-Control": "no-store",
            ], body: ResponseBody(bytes: file.bytes))
    }

    /// `GET …/submissions.jsonl` or `.csv`: every submission, oldest first.
    private func export(_ database: any SubmissionDatabase, _ formID: String, csv: Bool) throws -> Response {
        // CSV reads `httpParameters` alone: `formValues` is not fetched.
        let cursor = try database.cursor(formID: formID, formValues: !csv)
        return Self.exportResponse(cursor, form: forms[formID], formID: formID, csv: csv, logger: logger)
    }

    /// The submissions `cursor` reads that `keep` keeps, as CSV (the table of `form`) or JSON lines,
    /// streamed a few hundred at a time, so an export of any size holds little memory.
    static func exportResponse(
        _ cursor: any SubmissionCursor, form: CompiledForm?, formID: String, csv: Bool, logger: Logger,
        keep: @escaping @Sendable (StoredSubmission) -> Bool = { _ in true }
    ) -> Response {
        let writer = csv ? form.map(SubmissionExport.csv) ?? .jsonLines : .jsonLines
        var header = writer.header
        let headers: HTTPHeaders = [
            "Content-Type": csv ? "text/csv; charset=utf-8" : "application/jsonl; charset=utf-8",
            "Content-Disposition": SubmissionJSON.attachment("\(formID).\(csv ? "csv" : "jsonl")"),
            "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store",
        ]
        return .streamed(.ok, headers: headers) { bytes in
            bytes += header.utf8
            header = ""
            do {
                while bytes.count < 1 << 15 {
                    guard let submission = try cursor.next() else { return false }
                    if keep(submission) { bytes += writer.line(submission).utf8 }
                }
                return true
            } catch {
                logger.error("export cut short", metadata: ["form": "\(formID)", "error": "\(error)"])
                throw error
            }
        }
    }

    // MARK: - Shared steps

    /// Authenticates `request` for `scope` on its form, then runs `work` off the server's threads (the
    /// database's calls block); turns each refusal into its answer.
    func answer(
        _ request: Request, _ scope: APIKey.Scope,
        _ work: @escaping @Sendable (any SubmissionDatabase, String) throws -> Response
    ) async -> Response {
        let formID = request.parameters["id"] ?? ""
        return await Blocking.run { [self] in
            do {
                guard let database else { throw APIProblem.noStore }
                let key = try APIKey.authenticate(request.headers, in: database)
                guard forms[formID] != nil else { throw APIProblem.notFound("no form '\(formID)'") }
                try key.check(scope, formID: formID)
                return try work(database, formID)
            } catch let problem as APIProblem {
                return problem.response
            } catch {
                logger.error("the store did not answer an API request", metadata: ["error": "\(error)"])
                return APIProblem.unavailable.response
            }
        }
    }

    /// The `{sid}` of `request` as an id; one that is no id is no submission.
    func submissionID(_ request: Request, _ formID: String) throws -> SubmissionID {
        let text = request.parameters["sid"] ?? ""
        guard let id = SubmissionID(text) else {
            throw APIProblem.notFound("no submission '\(text.prefix(40))' of the form '\(formID)'")
        }
        return id
    }

    /// The submission `{sid}` of `formID`, with its files.
    private func stored(
        _ request: Request, _ database: any SubmissionDatabase, _ formID: String
    ) throws
        -> StoredSubmission
    {
        let id = try submissionID(request, formID)
        guard let submission = try database.submission(formID: formID, id: id) else {
            throw APIProblem.noSubmission(id, formID)
        }
        return submission
    }
}
