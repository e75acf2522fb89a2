/// One message to send out: a webhook's HTTP `POST`, or an e-mail through an SMTP server.
public enum Outbound: Sendable {
    /// `POST url` with `headers` and `body`. Redirects are not followed: a `3xx` is an answer like any other.
    case post(url: String, headers: [(name: String, value: String)], body: [UInt8])
    /// `message` (RFC 5322, CRLF line ends) from `from` to each of `to`, through `server`.
    case mail(server: MailServer, from: String, to: [String], message: [UInt8])
}

/// The operator's SMTP server (`--smtp smtp://[user:password@]host:port`).
public struct MailServer: Sendable, Equatable {
    /// `smtp://host:port` (STARTTLS when the server offers it, or always with `requireTLS`) or
    /// `smtps://host:port` (TLS from the first byte), without credentials.
    public let url: String
    /// The user and password to authenticate with, when the server wants them.
    public let username: String?
    public let password: String?
    /// Whether a server that does not offer STARTTLS is refused rather than spoken to in clear.
    public let requireTLS: Bool

    /// A server at `url` (no credentials in it).
    public init(url: String, username: String? = nil, password: String? = nil, requireTLS: Bool = false) {
        self.url = url
        self.username = username
        self.password = password
        self.requireTLS = requireTLS
    }
}

/// How sending one message went.
public struct Outcome: Sendable, Equatable {
    /// The HTTP status, or the SMTP server's last reply code; nil when no answer came.
    public let status: Int?
    /// What went wrong, when the message was not delivered: the transport's error, or the answer
    /// (`HTTP 500: …` with the start of its body).
    public let error: String?
    /// How long it took, from start to the last byte.
    public let milliseconds: Int

    /// Whether the receiver took the message: a `2xx` answer, or an SMTP server that accepted it.
    public var delivered: Bool { error == nil }

    public init(status: Int?, error: String?, milliseconds: Int) {
        self.status = status
        self.error = error
        self.milliseconds = milliseconds
    }
}
