private import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Requests whose body is still arriving. libmicrohttpd calls no handler of theirs until more bytes
// come, so a shutdown past its grace period could only close them without a word; registered here,
// each is answered 503 instead. The registry decides who answers: the worker that takes a request out
// before answering it, or the shutdown that takes it first.

extension Server {
    /// Registers a request whose body is expected.
    func noteReceiving(_ context: RequestContext, _ connection: ConnectionHandle) {
        receiving.withLock {
            $0[ObjectIdentifier(context)] = SuspendedRequest(context: .passUnretained(context), connection: connection)
        }
    }

    /// Takes a registered request out, before it is answered or when it completes: false when a shutdown
    /// took it first and answered it, so its connection must close without another answer.
    func endReceiving(_ context: RequestContext) -> Bool {
        receiving.withLock { $0.removeValue(forKey: ObjectIdentifier(context)) } != nil
    }

    /// Answers every request whose body is still arriving `503` and closes its connection, for a shutdown
    /// whose grace period has passed. The answer is written to the socket, which is then shut down: its
    /// context belongs to the worker thread, and libmicrohttpd, finding the connection closed, lets it go.
    func refuseAllReceiving() {
        let entries = receiving.withLock { table in
            let entries = Array(table.values)
            table.removeAll()
            return entries
        }
        guard !entries.isEmpty else { return }
        let refusal = Self.closingMessage(
            .error(.serviceUnavailable, "the server is shutting down: send the request again"), head: false)
        for entry in entries {
            let socket = CMicroHTTPD_socket(entry.connection.pointer)
            guard socket >= 0 else { continue }
            writeLast(refusal, to: socket)
            _ = Glibc.shutdown(socket, Int32(SHUT_RDWR))
        }
    }
}
