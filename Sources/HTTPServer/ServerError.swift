/// A failure to start or run the server, naming the libmicrohttpd call or setting at fault.
public struct ServerError: Error, CustomStringConvertible, Sendable {
    private enum Code: Sendable {
        case invalidConfiguration
        case addressResolution
        case startFailed
    }

    private let code: Code
    /// What went wrong, in words a person running the server can act on.
    public let message: String

    private init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    static func invalidConfiguration(_ problems: [String]) -> ServerError {
        ServerError(.invalidConfiguration, "invalid server configuration: " + problems.joined(separator: "; "))
    }

    static func addressResolution(host: String, reason: String) -> ServerError {
        ServerError(.addressResolution, "cannot listen on host '\(host)': \(reason)")
    }

    /// The one funnel for a libmicrohttpd call that failed: it names the function.
    static func libraryCall(_ function: String, detail: String) -> ServerError {
        ServerError(.startFailed, "\(function) failed: \(detail)")
    }
}
