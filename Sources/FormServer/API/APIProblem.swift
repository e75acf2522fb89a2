import FormStore
import HTTPServer

/// Why an API request is refused, and the answer it gets: JSON `{"errors":[{"code","message"}]}`.
enum APIProblem: Error {
    case noStore
    case noKey
    case wrongKey
    /// A key short of a scope (named), or not for the form (none named: it has the scope).
    case forbidden(String, missing: APIKey.Scope?)
    case notFound(String)
    case badRequest(String)
    case unavailable

    static func noSubmission(_ id: SubmissionID, _ formID: String) -> APIProblem {
        .notFound("no submission \(id) of the form '\(formID)'")
    }

    var response: Response {
        // RFC 6750 §3: a request without credentials gets the challenge alone; a wrong key, and a key
        // short of a scope, get its error codes.
        let realm = #"Bearer realm="formwright""#
        var response: Response
        switch self {
        case .noStore:
            response = Answers.problem(
                .notFound, "this server keeps no submissions in a database (--store)", code: "noStore", json: true)
        case .noKey:
            response = Answers.problem(
                .unauthorized, "an API key is needed: Authorization: Bearer fwk_…", code: "unauthorized", json: true)
            response.headers["WWW-Authenticate"] = realm
        case .wrongKey:
            response = Answers.problem(
                .unauthorized, "the API key is not known here (revoked, or mistyped)", code: "unauthorized", json: true)
            response.headers["WWW-Authenticate"] = realm + #", error="invalid_token""#
        case .forbidden(let message, let scope):
            response = Answers.problem(.forbidden, message, code: "forbidden", json: true)
            let named = scope.map { #", scope="\#($0.rawValue)""# } ?? ""
            response.headers["WWW-Authenticate"] = realm + #", error="insufficient_scope""# + named
        case .notFound(let message):
            response = Answers.problem(.notFound, message, code: "notFound", json: true)
        case .badRequest(let message):
            response = Answers.problem(.badRequest, message, code: "badRequest", json: true)
        case .unavailable:
            response = Answers.problem(
                .serviceUnavailable, "the store does not answer just now: try again later", code: "unavailable",
                json: true)
            response.headers["Retry-After"] = "5"
        }
        return response
    }
}
