private import CMicroHTTPD
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTTP/1.1 server on libmicrohttpd's thread pool, answering through a frozen `Router`.
///
/// ```swift
/// var routes = RouterBuilder()
/// routes.get("/healthz") { _ in .text(.ok, "ok") }
/// let server = Server(configuration: ServerConfiguration(port: 0), router: routes.freeze())
/// try server.start()
/// print("listening on", server.port)
/// server.shutdown()  // drains requests in flight, then stops
/// ```
public final class Server: Sendable {
    /// The settings the server was made with.
    public let configuration: ServerConfiguration
    let router: Router
    let logger: Logger
    /// Requests between their request line and their completion; idle keep-alive sockets are not counted,
    /// so a drain waits for work, not for clients that keep a connection open (docs/libmicrohttpd.md, "Stopping").
    /// Counted per thread: every request changes it twice, and a count in one place would have
    /// every worker write the same cache line.
    let inFlight = ShardedCounter()
    /// Once set, every response says `Connection: close`.
    let draining = Atomic<Bool>(false)
    /// Connections suspended for an async handler, so a shutdown can resume each exactly once.
    let suspended = Mutex<[ObjectIdentifier: SuspendedRequest]>([:])
    /// Requests whose body is still arriving, so a shutdown can answer each `503` (`Server+Receiving`).
    let receiving = Mutex<[ObjectIdentifier: SuspendedRequest]>([:])
    private let state = Mutex<RunState>(RunState())
    /// libmicrohttpd's messages, rate-limited (`libraryLog`).
    let libraryMessages = LibraryMessages()

    private struct RunState: ~Copyable {
        var daemon: DaemonHandle?
        var port = 0
        var selfReference: Unmanaged<Server>?
    }

    /// A server that will listen as `configuration` says, once started.
    public init(configuration: ServerConfiguration, router: Router, logger: Logger = Logger(label: "formwright.http")) {
        self.configuration = configuration
        self.router = router
        self.logger = logger
    }

    /// The bound port, after `start()`.
    public var port: Int { state.withLock { $0.port } }

    /// Requests being received or answered right now.
    public var requestsInFlight: Int { inFlight.sum }

    /// Binds the socket and starts the worker threads; returns once the server accepts connections.
    public func start() throws(ServerError) {
        let problems = configuration.problems()
        guard problems.isEmpty else { throw .invalidConfiguration(problems) }
        var address = try ListenAddress.resolve(host: configuration.host, port: configuration.port)
        LibraryPanic.install()

        let me = Unmanaged.passRetained(self)
        let ipv6 = address.isIPv6
        let daemon = address.withSockaddr {
            startLibraryDaemon(configuration, sockaddr: $0, ipv6: ipv6, server: me.toOpaque())
        }
        guard let daemon else {
            let reason = errno
            me.release()
            // The usual cause by far, said in words that name what to change.
            let hint = reason == EADDRINUSE ? ": port \(address.port) is in use by another process" : ""
            throw .libraryCall(
                "MHD_start_daemon",
                detail: "could not listen on \(address)\(hint) (\(String(cString: strerror(reason))))")
        }
        let port = Int(CMicroHTTPD_boundPort(daemon))
        let handle = DaemonHandle(pointer: daemon)
        state.withLock {
            $0.daemon = handle
            $0.port = port
            $0.selfReference = me
        }
        logger.info(
            "listening", metadata: ["address": "\(address.hostForURL):\(port)", "threads": "\(configuration.threads)"])
    }

    /// Stops accepting, lets requests in flight finish within `gracePeriod`, then stops the workers.
    ///
    /// Requests still suspended in an async handler at the deadline, or still sending their body, are
    /// answered 503.
    /// - Returns: whether every request in flight finished before the deadline.
    @discardableResult
    public func shutdown(gracePeriod: Duration = .seconds(10)) -> Bool {
        draining.store(true, ordering: .sequentiallyConsistent)
        guard
            let (handle, me) = state.withLock({ run -> (DaemonHandle, Unmanaged<Server>)? in
                guard let daemon = run.daemon, let me = run.selfReference else { return nil }
                run.daemon = nil
                run.selfReference = nil
                return (daemon, me)
            })
        else { return true }
        let daemon = handle.pointer

        // Quiesce: the listening socket leaves the epoll sets and becomes ours to close.
        let listenSocket = MHD_quiesce_daemon(daemon)
        let drained = waitForInFlight(until: monotonicNanoseconds() + gracePeriod.nanoseconds)
        if !drained {
            logger.warning("shutdown deadline passed", metadata: ["requestsInFlight": "\(requestsInFlight)"])
            // Suspended connections must be resumed before MHD_stop_daemon, or the library leaks or misbehaves.
            resumeAllSuspended(with: .error(.serviceUnavailable, "the server is shutting down"))
            refuseAllReceiving()
            _ = waitForInFlight(until: monotonicNanoseconds() + 1_000_000_000)
        }
        MHD_stop_daemon(daemon)
        if listenSocket >= 0 { close(listenSocket) }
        me.release()
        logger.info("stopped", metadata: ["drained": "\(drained)"])
        return drained
    }

    private func waitForInFlight(until deadline: UInt64) -> Bool {
        while inFlight.sum > 0 {
            if monotonicNanoseconds() >= deadline { return false }
            usleep(5_000)
        }
        return true
    }
}

/// The running daemon. `@unchecked Sendable`: only `start` and `shutdown` use it, under `state`'s lock.
private struct DaemonHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

extension Duration {
    /// The duration in whole nanoseconds, saturating.
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}
