private import CMicroHTTPD
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts libmicrohttpd on `sockaddr` with every limit of `configuration` and the callbacks below;
/// `server` is the retained `Server` every callback receives as `cls`. Nil when the library refuses.
func startLibraryDaemon(
    _ configuration: ServerConfiguration, sockaddr: UnsafeRawPointer, ipv6: Bool, server: UnsafeMutableRawPointer
) -> OpaquePointer? {
    var flags =
        MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_USE_ITC.rawValue
        | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue
    if ipv6 { flags |= MHD_USE_IPv6.rawValue }
    var options: [MHD_OptionItem] = [
        // The logger goes first, or libmicrohttpd prints its early messages to stderr itself.
        MHD_OptionItem(option: .EXTERNAL_LOGGER, value: unsafeBitCast(libraryLog, to: Int.self), ptr_value: server),
        MHD_OptionItem(option: .SOCK_ADDR, value: 0, ptr_value: UnsafeMutableRawPointer(mutating: sockaddr)),
        // 400 for HTTP/1.1 without Host and for spaces in the target.
        MHD_OptionItem(option: .STRICT_FOR_CLIENT, value: 1, ptr_value: nil),
        MHD_OptionItem(option: .CONNECTION_LIMIT, value: configuration.connectionLimit, ptr_value: nil),
        MHD_OptionItem(option: .PER_IP_CONNECTION_LIMIT, value: configuration.perIPConnectionLimit, ptr_value: nil),
        MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: configuration.connectionTimeout, ptr_value: nil),
        MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: configuration.headerMemoryLimit, ptr_value: nil),
        MHD_OptionItem(option: .URI_LOG_CALLBACK, value: unsafeBitCast(beginRequest, to: Int.self), ptr_value: server),
        MHD_OptionItem(option: .NOTIFY_COMPLETED, value: unsafeBitCast(endRequest, to: Int.self), ptr_value: server),
        MHD_OptionItem(
            option: .NOTIFY_CONNECTION, value: unsafeBitCast(connectionChanged, to: Int.self), ptr_value: server),
    ]
    if configuration.threads > 1 {
        options.append(MHD_OptionItem(option: .THREAD_POOL_SIZE, value: configuration.threads, ptr_value: nil))
    }
    options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
    return CMicroHTTPD_startDaemon(flags, 0, handleAccess, server, &options)
}

// The C callbacks are trampolines: recover the Swift objects from `void *`, call a Swift method,
// return. The server travels as `cls` (retained while the daemon runs); each request's context
// travels as `*con_cls`, retained once in `beginRequest` and released once: in `endRequest`, or in
// `connectionChanged` for a request libmicrohttpd ended before any handler call.
//
// Each connection has a slot (its socket context) holding the context of its request under way.
// NOTIFY_COMPLETED does not come for every request that got a context: one libmicrohttpd gives up
// while reading its headers because the connection's memory ran out (many cookies on a long target)
// gets none, and would otherwise keep its context, and its place in `inFlight`, forever: memory lost
// per request, and every graceful stop waiting out its whole grace period. (Its other early answers,
// 431, 400 for a malformed Content-Length or a missing Host, a client gone mid-headers, do complete;
// a 414 comes before the URI callback.) Whatever is left in the slot when the connection closes, or
// when its next request begins, is released there.

/// The slot of `connection`: one pointer of plain memory, allocated when the connection starts.
private func requestSlot(_ connection: OpaquePointer?) -> UnsafeMutablePointer<UnsafeMutableRawPointer?>? {
    guard let connection, let slot = CMicroHTTPD_socketContext(connection) else { return nil }
    return slot.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
}

/// MHD_OPTION_URI_LOG_CALLBACK: runs once per request, right after the request line, with the raw
/// target. Its result becomes `*con_cls`, so every request has a context from its first handler call.
private let beginRequest:
    @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?)
        -> UnsafeMutableRawPointer? = { cls, uri, connection in
            guard let cls else { return nil }
            let server = Unmanaged<Server>.fromOpaque(cls)
            server._withUnsafeGuaranteedRef { _ = $0.inFlight.add(1, ordering: .relaxed) }
            let slot = requestSlot(connection)
            // An earlier request of the connection that libmicrohttpd ended without a completion.
            if let earlier = slot?.pointee {
                let context = Unmanaged<RequestContext>.fromOpaque(earlier).takeRetainedValue()
                server._withUnsafeGuaranteedRef { $0.completeUnhandled(context) }
            }
            let pointer = Unmanaged.passRetained(RequestContext(rawTarget: uri, now: monotonicNanoseconds())).toOpaque()
            slot?.pointee = pointer
            return pointer
        }

/// The access handler: called several times per request (headers, body pieces, final call).
private let handleAccess: MHD_AccessHandlerCallback = { cls, connection, _, method, _, uploadData, uploadSize, conCls in
    guard let cls, let connection, let method, let uploadSize, let raw = conCls?.pointee else { return .NO }
    // Both objects are kept alive by their owners for the whole call (the daemon holds the server, the
    // connection its context): borrowed without a retain and a release each, twice a request.
    let keepGoing = Unmanaged<Server>.fromOpaque(cls)._withUnsafeGuaranteedRef { server in
        Unmanaged<RequestContext>.fromOpaque(raw)._withUnsafeGuaranteedRef { context in
            server.handle(
                context, connection: ConnectionHandle(connection), method: method, uploadData: uploadData,
                uploadSize: uploadSize)
        }
    }
    return keepGoing ? .YES : .NO
}

/// MHD_OPTION_NOTIFY_COMPLETED: every request that got a context ends here exactly once,
/// answered, aborted or timed out.
private let endRequest: MHD_RequestCompletedCallback = { cls, connection, conCls, termination in
    guard let cls, let conCls, let raw = conCls.pointee else { return }
    conCls.pointee = nil
    if let slot = requestSlot(connection), slot.pointee == raw { slot.pointee = nil }
    let context = Unmanaged<RequestContext>.fromOpaque(raw).takeRetainedValue()
    Unmanaged<Server>.fromOpaque(cls)._withUnsafeGuaranteedRef {
        $0.complete(context, termination: termination.rawValue)
    }
}

/// MHD_OPTION_NOTIFY_CONNECTION: allocates a connection's request slot when it starts; when it closes,
/// releases the context still in the slot (a request that never reached a handler) and the slot.
private let connectionChanged: MHD_NotifyConnectionCallback = { cls, _, socketContext, code in
    guard let cls, let socketContext else { return }
    // Compared by raw value: a closed C enum must not be switched over exhaustively (LIBMICROHTTPD.md §h).
    if code.rawValue == MHD_ConnectionNotificationCode.CONNECTION_NOTIFY_STARTED.rawValue {
        let slot = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 1)
        slot.initialize(to: nil)
        socketContext.pointee = UnsafeMutableRawPointer(slot)
        return
    }
    guard let raw = socketContext.pointee else { return }
    socketContext.pointee = nil
    let slot = raw.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
    if let pending = slot.pointee {
        let context = Unmanaged<RequestContext>.fromOpaque(pending).takeRetainedValue()
        Unmanaged<Server>.fromOpaque(cls)._withUnsafeGuaranteedRef { $0.completeUnhandled(context) }
    }
    slot.deinitialize(count: 1)
    slot.deallocate()
}

/// MHD_OPTION_EXTERNAL_LOGGER: libmicrohttpd's own messages, into the server's logger.
private let libraryLog: MHD_LogCallback = { cls, format, arguments in
    guard let cls, let format, let arguments else { return }
    let server = Unmanaged<Server>.fromOpaque(cls).takeUnretainedValue()
    var buffer = [CChar](repeating: 0, count: 512)
    _ = vsnprintf(&buffer, buffer.count, format, arguments)
    let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let text = message.trimmingASCIIWhitespaceString().trimmingCharacters(in: "\n")
    guard let line = server.libraryMessages.line(for: text, now: monotonicNanoseconds()) else { return }
    server.logger.notice("libmicrohttpd: \(line)")
}

/// Reasons libmicrohttpd gives for ending a request, by `MHD_RequestTerminationCode` raw value.
/// Compared by raw value: a closed C enum must not be switched over exhaustively (LIBMICROHTTPD.md §h).
func terminationReason(_ code: UInt32) -> String? {
    switch code {
    case MHD_RequestTerminationCode.REQUEST_TERMINATED_COMPLETED_OK.rawValue: nil
    case MHD_RequestTerminationCode.REQUEST_TERMINATED_TIMEOUT_REACHED.rawValue: "timed out"
    case MHD_RequestTerminationCode.REQUEST_TERMINATED_CLIENT_ABORT.rawValue: "client closed the connection"
    case MHD_RequestTerminationCode.REQUEST_TERMINATED_READ_ERROR.rawValue: "read error"
    case MHD_RequestTerminationCode.REQUEST_TERMINATED_DAEMON_SHUTDOWN.rawValue: "server shut down"
    default: "closed with an error"
    }
}

/// A connection pointer that may cross to the task resuming it.
/// `@unchecked Sendable`: libmicrohttpd allows MHD_resume_connection from any thread (§d).
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        var text = self[...]
        while text.last == set { text = text.dropLast() }
        return String(text)
    }
}
