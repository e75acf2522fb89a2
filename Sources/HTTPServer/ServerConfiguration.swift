#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Everything a `Server` needs to know before it starts. Every hardening limit is set here, on
/// purpose: libmicrohttpd's own defaults include "never time out" (docs/libmicrohttpd.md, "Limits").
public struct ServerConfiguration: Sendable {
    /// The address to listen on: an IPv4 or IPv6 literal, or a name resolved once at start.
    public var host: String = "127.0.0.1"
    /// The TCP port; 0 lets the kernel pick one, readable from `Server.port` after start.
    public var port: Int = 8080
    /// Worker threads, each with its own epoll set; a connection stays on one worker.
    public var threads: Int = ServerConfiguration.processorCount
    /// The largest request body read; larger ones get 413 without being buffered.
    public var maxBodySize: Int = 1 << 20
    /// Open connections at most, over all workers.
    public var connectionLimit: Int = 1024
    /// Open connections at most from one IP address; 0 means no limit (behind a proxy).
    public var perIPConnectionLimit: Int = 64
    /// Seconds a connection may stay silent before it is closed (an inactivity timer).
    public var connectionTimeout: Int = 10
    /// The most bytes of request line and header fields read (RFC 6585 §5): past it, 431, or 414 for
    /// a target that alone is too long. A `Cookie` field counts twice: libmicrohttpd keeps a parsed
    /// copy in the same pool, and refuses cookies over about half of it itself. Each connection holds
    /// this and `answerHeaderRoom` more in libmicrohttpd's pool, which 0.9.75 clears on every request:
    /// raising it costs every request, not just the large ones.
    public var maxHeaderSize: Int = 30 * 1024

    /// Pool bytes kept past `maxHeaderSize` for the answer's own header: libmicrohttpd accepts a
    /// request that leaves too little of it and then closes the connection without a word.
    public static let answerHeaderRoom = 2048

    /// libmicrohttpd's per-connection pool (`MHD_OPTION_CONNECTION_MEMORY_LIMIT`): 32 KiB by default.
    var connectionMemory: Int { maxHeaderSize + Self.answerHeaderRoom }
    /// Seconds a request body upload may take from its first byte; a slower client is disconnected.
    public var bodyDeadline: Int = 30
    /// Called once per finished request, on a server thread, with what an access log needs.
    public var accessLog: (@Sendable (AccessRecord) -> Void)?
    /// How the server words the errors it answers before any route runs (a body over the limit, a
    /// malformed request, no route, a method the path lacks), given the status, the message and the
    /// request's header fields (empty when they were not read): to answer an API client in JSON, say.
    /// Nil: `Response.error`, plain text.
    public var errorResponse: (@Sendable (HTTPStatus, String, HTTPHeaders) -> Response)?

    /// The defaults above, with any of them overridden afterwards.
    public init(host: String = "127.0.0.1", port: Int = 8080) {
        self.host = host
        self.port = port
    }

    /// Online processors, the default thread count.
    public static var processorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Problems a person could fix in a flag or environment variable, in plain words.
    func problems() -> [String] {
        var problems: [String] = []
        if !(0...65535).contains(port) { problems.append("port \(port) is not between 0 and 65535") }
        if !(1...256).contains(threads) { problems.append("threads must be between 1 and 256, not \(threads)") }
        if maxBodySize < 0 { problems.append("the body limit must not be negative") }
        if connectionLimit < threads { problems.append("the connection limit must be at least the thread count") }
        if perIPConnectionLimit < 0 { problems.append("the per-IP connection limit must not be negative") }
        if connectionTimeout < 1 { problems.append("the connection timeout must be at least 1 second") }
        if !(2048...(1 << 20)).contains(maxHeaderSize) {
            problems.append("the header limit must be between 2 KiB and 1 MiB, not \(maxHeaderSize) bytes")
        }
        if bodyDeadline < 1 { problems.append("the body deadline must be at least 1 second") }
        return problems
    }
}

/// What the server knows about one finished request, for access logs.
public struct AccessRecord: Sendable {
    /// The method token.
    public let method: String
    /// The request target as sent (not decoded), so a log shows exactly what arrived.
    public let target: String
    /// The status sent, or nil when the connection ended with no response.
    public let status: Int?
    /// Response content bytes.
    public let bytes: Int
    /// Time from the request line to the end of the exchange.
    public var duration: Duration { .nanoseconds(Int64(clamping: nanoseconds)) }
    /// `duration` in nanoseconds, for a formatter that prints it on every request without the 128-bit
    /// arithmetic `Duration.components` costs.
    public let nanoseconds: UInt64
    /// The peer, when known.
    public let remoteAddress: SocketAddress?
    /// Why the exchange ended when it did not end normally (`client closed`, `timed out`).
    public let abortReason: String?

    /// A record with every field given, for log formatters and their tests.
    public init(
        method: String, target: String, status: Int?, bytes: Int, duration: Duration, remoteAddress: SocketAddress?,
        abortReason: String?
    ) {
        let (seconds, attoseconds) = duration.components
        self.init(
            method: method, target: target, status: status, bytes: bytes,
            nanoseconds: UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds)) / 1_000_000_000,
            remoteAddress: remoteAddress, abortReason: abortReason)
    }

    /// A record timed in nanoseconds, as the server measures.
    init(
        method: String, target: String, status: Int?, bytes: Int, nanoseconds: UInt64, remoteAddress: SocketAddress?,
        abortReason: String?
    ) {
        self.method = method
        self.target = target
        self.status = status
        self.bytes = bytes
        self.nanoseconds = nanoseconds
        self.remoteAddress = remoteAddress
        self.abortReason = abortReason
    }
}
