/// An HTTP status code with its reason phrase (RFC 9110 §15).
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible {
    /// The three-digit code.
    public let code: Int
    /// The reason phrase, used in default error bodies.
    public let reason: String

    /// A status with a code and reason phrase.
    public init(code: Int, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// `"404 Not Found"`.
    public var description: String { "\(code) \(reason)" }

    /// 200.
    public static let ok = HTTPStatus(code: 200, reason: "OK")
    /// 201.
    public static let created = HTTPStatus(code: 201, reason: "Created")
    /// 202: taken, to be done later (a delivery sent again by the next round).
    public static let accepted = HTTPStatus(code: 202, reason: "Accepted")
    /// 204.
    public static let noContent = HTTPStatus(code: 204, reason: "No Content")
    /// 303: the answer to a successful form post (POST/redirect/GET).
    public static let seeOther = HTTPStatus(code: 303, reason: "See Other")
    /// 304.
    public static let notModified = HTTPStatus(code: 304, reason: "Not Modified")
    /// 400.
    public static let badRequest = HTTPStatus(code: 400, reason: "Bad Request")
    /// 401.
    public static let unauthorized = HTTPStatus(code: 401, reason: "Unauthorized")
    /// 403.
    public static let forbidden = HTTPStatus(code: 403, reason: "Forbidden")
    /// 404.
    public static let notFound = HTTPStatus(code: 404, reason: "Not Found")
    /// 405: always sent with an `Allow` header.
    public static let methodNotAllowed = HTTPStatus(code: 405, reason: "Method Not Allowed")
    /// 408.
    public static let requestTimeout = HTTPStatus(code: 408, reason: "Request Timeout")
    /// 409: the request would overwrite a change it has not seen.
    public static let conflict = HTTPStatus(code: 409, reason: "Conflict")
    /// 412: an `If-Match` that the resource's current entity tag does not match.
    public static let preconditionFailed = HTTPStatus(code: 412, reason: "Precondition Failed")
    /// 413.
    public static let contentTooLarge = HTTPStatus(code: 413, reason: "Content Too Large")
    /// 414: the target is more than the server interprets (RFC 9110 §15.5.15).
    public static let uriTooLong = HTTPStatus(code: 414, reason: "URI Too Long")
    /// 415.
    public static let unsupportedMediaType = HTTPStatus(code: 415, reason: "Unsupported Media Type")
    /// 422: a well-formed submission that failed validation.
    public static let unprocessableContent = HTTPStatus(code: 422, reason: "Unprocessable Content")
    /// 429: too many requests of one kind from one client for now (RFC 6585 §4), with `Retry-After`.
    public static let tooManyRequests = HTTPStatus(code: 429, reason: "Too Many Requests")
    /// 431: the request line and header fields are more than the server reads (RFC 6585 §5).
    public static let requestHeaderFieldsTooLarge = HTTPStatus(code: 431, reason: "Request Header Fields Too Large")
    /// 500.
    public static let internalServerError = HTTPStatus(code: 500, reason: "Internal Server Error")
    /// 501.
    public static let notImplemented = HTTPStatus(code: 501, reason: "Not Implemented")
    /// 503.
    public static let serviceUnavailable = HTTPStatus(code: 503, reason: "Service Unavailable")
}
