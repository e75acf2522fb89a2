// sockaddr's members come through the C module's view of the system headers.
private import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The socket address a server binds, resolved once at start from a host name or literal.
struct ListenAddress: CustomStringConvertible {
    private var storage = sockaddr_storage()
    private let length: Int
    let isIPv6: Bool
    private let host: String
    /// The port asked for (0: any the kernel picks).
    let port: Int

    /// Resolves `host` (an IPv4/IPv6 literal or a name) for a listening TCP socket on `port`.
    static func resolve(host: String, port: Int) throws(ServerError) -> ListenAddress {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &results)
        guard status == 0, let first = results else {
            throw .addressResolution(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(results) }
        var address = ListenAddress(
            length: Int(first.pointee.ai_addrlen), isIPv6: first.pointee.ai_family == AF_INET6, host: host,
            port: port)
        withUnsafeMutableBytes(of: &address.storage) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: address.length))
        }
        return address
    }

    private init(length: Int, isIPv6: Bool, host: String, port: Int) {
        self.length = length
        self.isIPv6 = isIPv6
        self.host = host
        self.port = port
    }

    /// Calls `body` with a pointer to the `sockaddr`, valid for the duration of the call.
    mutating func withSockaddr<R>(_ body: (UnsafeRawPointer) -> R) -> R {
        withUnsafePointer(to: &storage) { body(UnsafeRawPointer($0)) }
    }

    /// The host as it goes in a URL: IPv6 literals in brackets.
    var hostForURL: String { isIPv6 && host.contains(":") ? "[\(host)]" : host }

    /// The host and the port asked for, as a person would type them (`127.0.0.1:8080`).
    var description: String { "\(hostForURL):\(port)" }
}
