private import CMicroHTTPD
import Synchronization

/// A connection waiting for an async handler, registered so it is resumed exactly once (or, in
/// `Server.receiving`, one whose body is arriving, so it is answered exactly once).
/// `@unchecked Sendable`: while suspended, libmicrohttpd does not touch the context, and only the
/// party that removes the entry from `Server.suspended` writes to it and resumes the connection.
struct SuspendedRequest: @unchecked Sendable {
    let context: Unmanaged<RequestContext>
    let connection: ConnectionHandle
}

extension Server {
    /// Suspends the connection, then runs `work` as a task that resumes it with the response.
    func suspend(
        _ context: RequestContext, _ connection: ConnectionHandle,
        running work: @escaping @Sendable () async -> Response
    ) {
        context.phase = .suspended
        let key = ObjectIdentifier(context)
        suspended.withLock { $0[key] = SuspendedRequest(context: .passUnretained(context), connection: connection) }
        // Suspend before the task exists, so it can never resume a connection not yet suspended.
        MHD_suspend_connection(connection.pointer)
        Task {
            var response = await work()
            // The work may answer `later` again: that work runs here, in the same task.
            while case .later(let more) = response.source { response = await more() }
            self.resume(key, with: response)
        }
    }

    /// Hands `response` to a suspended request and resumes it, unless a shutdown already did.
    func resume(_ key: ObjectIdentifier, with response: Response) {
        guard let entry = suspended.withLock({ $0.removeValue(forKey: key) }) else { return }
        entry.context.takeUnretainedValue().phase = .resumed(response)
        MHD_resume_connection(entry.connection.pointer)
    }

    /// Resumes every suspended request with `response`: they must all be resumed before the daemon stops.
    func resumeAllSuspended(with response: Response) {
        let entries = suspended.withLock { table in
            let entries = Array(table.values)
            table.removeAll()
            return entries
        }
        for entry in entries {
            entry.context.takeUnretainedValue().phase = .resumed(response)
            MHD_resume_connection(entry.connection.pointer)
        }
    }
}
