private import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Requests refused before libmicrohttpd runs out of its connection memory storing them, which it
// would answer with silence (docs/libmicrohttpd.md, "Connection memory").

extension Server {
    /// The most query arguments a target of `length` bytes may have. libmicrohttpd 0.9.75 stores each
    /// argument (48 bytes) in the connection's memory as soon as it has read the request line, with the
    /// header block's bytes, and at most half the memory, in the same memory: past what is left it neither
    /// answers nor closes, and the connection waits for `--timeout`. The bound leaves a quarter of the
    /// room unused (64 bytes an argument) and 2 KiB besides (docs/libmicrohttpd.md, "Connection memory").
    func maximumQueryArguments(targetLength length: Int) -> Int {
        let memory = configuration.connectionMemory
        return max(0, (min(memory / 2, memory - length) - 2048) / 64)
    }

    /// Refuses a target with more query arguments than `maximumQueryArguments`, from the request line's
    /// callback: by the first handler call libmicrohttpd would have run out of memory storing them. The
    /// refusal is written to the socket, which is then shut down, so that libmicrohttpd finds the
    /// connection closed and lets it go at once. Its method is not known yet: a HEAD gets the body too,
    /// harmless on a connection that closes after it.
    @inline(never)
    func refuseQueryArguments(_ context: RequestContext, _ connection: ConnectionHandle) {
        let limit = maximumQueryArguments(targetLength: context.rawTargetBytes.count)
        let message =
            "the request target has \(context.queryArguments) query arguments, more than the \(limit) this server reads in a target of \(context.rawTargetBytes.count) bytes: send fewer (a form posts its fields in the body)"
        let plain = Response.error(.uriTooLong, message)
        let (status, bytes) = plain.sentStatusAndCount
        context.phase = .closing(.init(status: status, bytes: bytes))
        let socket = CMicroHTTPD_socket(connection.pointer)
        writeLast(Self.closingMessage(plain, head: false), to: socket)
        if socket >= 0 { _ = Glibc.shutdown(socket, Int32(SHUT_RDWR)) }
    }
}
