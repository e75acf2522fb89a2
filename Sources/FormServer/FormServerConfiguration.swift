import HTTPServer

/// What `formwright serve` serves and how: folders plus the HTTP server's settings.
public struct FormServerConfiguration: Sendable {
    /// The folder of form descriptors (`Forms/`).
    public var formsFolder: String = "Forms"
    /// The folder served under `/static/` (`Public/`).
    public var publicFolder: String = "Public"
    /// Listening address, threads, body limit and hardening limits.
    public var server = ServerConfiguration()
    /// Whether each request is written to the access log.
    public var accessLog = true
    /// How long a shutdown waits for requests in flight before answering them 503.
    public var shutdownGracePeriod: Duration = .seconds(8)

    /// The defaults: `Forms`, `Public`, 127.0.0.1:8080.
    public init() {}
}
