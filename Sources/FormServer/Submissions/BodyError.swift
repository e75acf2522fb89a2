import HTTPServer

/// A request body that cannot be read as a submission: answered with a 4xx that says why.
enum BodyError: Error, Sendable {
    /// Malformed: 400.
    case badRequest(String)
    /// A media type the route does not read: 415.
    case unsupported(String)

    var status: HTTPStatus {
        switch self {
        case .badRequest: .badRequest
        case .unsupported: .unsupportedMediaType
        }
    }

    var message: String {
        switch self {
        case .badRequest(let message), .unsupported(let message): message
        }
    }
}
