import FormStore
import Foundation
import HTTPServer
import Logging

/// The delivery log over HTTP, by API key: a submission's jobs and each one's attempts, a form's jobs
/// in a state (the failed ones, to see what did not arrive), and a redelivery. Refusals as the
/// submissions API's (`SubmissionAPI`).
struct DeliveryAPI: Sendable {
    let api: SubmissionAPI

    func add(to routes: inout RouterBuilder) {
        routes.on(.get, "/api/forms/{id}/submissions/{sid}/deliveries") { request in
            await api.answer(request, .read) { try ofSubmission(request, $0, $1) }
        }
        routes.on(.get, "/api/forms/{id}/deliveries") { request in
            await api.answer(request, .read) { try inState(request, $0, $1) }
        }
        routes.on(.post, "/api/forms/{id}/deliveries/{job}/retry") { request in
            await api.answer(request, .deliver) { try retry(request, $0, $1) }
        }
    }

    /// `GET …/submissions/{sid}/deliveries`: `{"deliveries": [job, with its "log" of attempts]}`.
    private func ofSubmission(
        _ request: Request, _ database: any SubmissionDatabase, _ formID: String
    ) throws
        -> Response
    {
        let id = try api.submissionID(request, formID)
        guard try database.submission(formID: formID, id: id) != nil else { throw APIProblem.noSubmission(id, formID) }
        let jobs = try database.outbox.deliveries(formID: formID, submission: id)
        let items = jobs.map { Self.item($0.delivery, log: $0.attempts) }.joined(separator: ",")
        return Answers.json(.ok, Array(#"{"deliveries":[\#(items)]}"#.utf8))
    }

    /// `GET …/deliveries?state=failed&limit=100`: a form's jobs in a state (`failed` unless said), newest
    /// first.
    private func inState(
        _ request: Request, _ database: any SubmissionDatabase, _ formID: String
    ) throws
        -> Response
    {
        var state = DeliveryState.failed
        var limit = 100
        for (name, value) in request.query {
            switch name {
            case "state":
                guard let given = DeliveryState(rawValue: value) else {
                    throw APIProblem.badRequest("state: expected pending, delivered or failed")
                }
                state = given
            case "limit":
                guard let given = Int(value), (1...1_000).contains(given) else {
                    throw APIProblem.badRequest("limit: expected a whole number from 1 to 1000")
                }
                limit = given
            default: throw APIProblem.badRequest("\(name.prefix(40)): unknown parameter (state, limit)")
            }
        }
        let jobs = try database.outbox.deliveries(formID: formID, state: state, limit: limit)
        let items = jobs.map { Self.item($0, log: nil) }.joined(separator: ",")
        return Answers.json(.ok, Array(#"{"deliveries":[\#(items)]}"#.utf8))
    }

    /// `POST …/deliveries/{job}/retry`: the job is pending and due now, whatever its state; `202`.
    private func retry(_ request: Request, _ database: any SubmissionDatabase, _ formID: String) throws -> Response {
        let job = request.parameters["job"] ?? ""
        guard try database.outbox.retry(formID: formID, id: job, now: DeliveryWorker.milliseconds()) else {
            throw APIProblem.notFound("no delivery '\(job.prefix(80))' of the form '\(formID)'")
        }
        api.logger.notice("delivery sent again", metadata: ["form": "\(formID)", "job": "\(job)"])
        return Answers.json(.accepted, Array(#"{"id":\#(SubmissionJSON.string(job)),"state":"pending"}"#.utf8))
    }

    /// A job as the API writes it: id, submission, kind, where it goes (a URL's credentials hidden),
    /// state, attempts, when it is due and when it was written; and its attempts, when `log` is given.
    static func item(_ job: StoredDelivery, log: [DeliveryAttempt]?) -> String {
        let due = SubmissionStore.Files.timestamp(Date(timeIntervalSince1970: Double(job.due) / 1000)).iso
        var text =
            #"{"id":"# + SubmissionJSON.string(job.id) + #","submission":"\#(job.submission)","kind":"#
            + SubmissionJSON.string(job.kind) + #","destination":"# + SubmissionJSON.string(job.shownDestination)
            + #","state":"\#(job.state.rawValue)","attempts":\#(job.attempts),"due":"\#(due)","created":"#
            + SubmissionJSON.string(job.created)
        if let log {
            text += #","log":["#
            text += log.map { attempt in
                #"{"number":\#(attempt.number),"at":"# + SubmissionJSON.string(attempt.at)
                    + #","delivered":\#(attempt.delivered),"status":\#(attempt.status.map(String.init) ?? "null")"#
                    + #","error":\#(attempt.error.map(SubmissionJSON.string) ?? "null"),"milliseconds":\#(attempt.milliseconds)}"#
            }.joined(separator: ",")
            text += "]"
        }
        return text + "}"
    }
}

extension StoredDelivery {
    /// Where the job goes, as the API and the command line show it: a webhook's URL without its user
    /// and password.
    public var shownDestination: String {
        guard kind == "webhook", var parts = URLComponents(string: destination),
            parts.user != nil || parts.password != nil
        else { return destination }
        parts.user = nil
        parts.password = nil
        return parts.string ?? ""
    }
}
