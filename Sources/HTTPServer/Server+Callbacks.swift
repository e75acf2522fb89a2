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
        // Not strict: the server refuses HTTP/1.1 without Host and spaces in the target itself, with an
        // answer. Strict, libmicrohttpd closed on a space without a word, and after running out of memory
        // for a Cookie field its Host check closed the connection before its own 431 was sent.
        MHD_OptionItem(option: .STRICT_FOR_CLIENT, value: 0, ptr_value: nil),
        MHD_OptionItem(option: .CONNECTION_LIMIT, value: configuration.connectionLimit, ptr_value: nil),
        MHD_OptionItem(option: .PER_IP_CONNECTION_LIMIT, value: configuration.perIPConnectionLimit, ptr_value: nil),
        MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: configuration.connectionTimeout, ptr_value: nil),
        MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: configuration.connectionMemory, ptr_value: nil),
        MHD_OptionItem(option: .URI_LOG_CALLBACK, value: unsafeBitCast(beginRequest, to: Int.self), ptr_value: server),
        MHD_OptionItem(option: .NOTIFY_COMPLETED, value: unsafeBitCast(endRequest, to: Int.self), ptr_value: server),
        MHD_OptionItem(
            option: .NOTIFY_CONNECTION, value: unsafeBitCast(connectionChanged, to: Int.self), ptr_value: server),
    ]
    if configuration.threads > 1 {
        options.append(MHD_OptionItem(option: .THREAD_POOL_SIZE, value: configuration.threads, ptr_value: nil))
    }
    options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
    // The socket address carries the port; the library also names the one passed here in its own
    // messages ("Failed to bind to port …"), so it is the port asked for, not 0.
    return CMicroHTTPD_startDaemon(flags, UInt16(configuration.port), handleAccess, server, &options)
}

// The C callbacks are trampolines: recover the Swift objects from `void *`, call a Swift method,
// return. The server travels as `cls` (retained while the daemon runs). Each connection's
// `RequestContext` is its socket context: made and retained when the connection starts, released
// when it closes. Each request's `*con_cls` points to it, unretained: libmicrohttpd completes a
// connection's request before it begins the next one and before it closes the connection.
//
// NOTIFY_COMPLETED does not come for every request that began: one libmicrohttpd gives up while
// reading its headers because the connection's memory ran out (many cookies on a long target) gets
// none, and would otherwise never be logged nor leave `inFlight`, so that every graceful stop waited
// out its whole grace period. (Its other early answers, 431, 400 for a malformed Content-Length or a
// missing Host, a client gone mid-headers, do complete; a 414 comes before the URI callback.) A
// request still under way when the connection closes, or when its next request begins, is
// completed there.

/// The context of `connection`, made when the connection started.
private func connectionContext(_ connection: OpaquePointer?) -> UnsafeMutableRawPointer? {
    guard let connection else { return nil }
    return CMicroHTTPD_socketContext(connection)
}

/// MHD_OPTION_URI_LOG_CALLBACK: runs once per request, right after the request line, with the raw
/// target. Its result becomes `*con_cls`, so every request has a context from its first handler call.
private let beginRequest:
    @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?)
        -> UnsafeMutableRawPointer? = { cls, uri, connection in
            guard let cls, let raw = connectionContext(connection) else { return nil }
            Unmanaged<Server>.fromOpaque(cls)._withUnsafeGuaranteedRef { server in
                Unmanaged<RequestContext>.fromOpaque(raw)._withUnsafeGuaranteedRef { context in
                    // An earlier request of the connection that libmicrohttpd ended without a completion.
                    if context.inUse { server.completeUnhandled(context) }
                    server.inFlight.add(1)
                    context.begin(rawTarget: uri, now: monotonicNanoseconds())
                    let arguments = context.queryArguments
                    if let connection, arguments > 0,
                        arguments > server.maximumQueryArguments(targetLength: context.rawTargetBytes.count)
                    {
                        server.refuseQueryArguments(context, ConnectionHandle(connection))
                    }
                    // Read once per connection: a request that ends before its headers is logged with it too.
                    if context.remoteAddress == nil, let connection, let peer = CMicroHTTPD_clientAddress(connection) {
                        context.remoteAddress = SocketAddress(peer)
                    }
                }
            }
            return raw
        }

/// The access handler: called several times per request (headers, body pieces, final call).
private let handleAccess: MHD_AccessHandlerCallback = {
    cls, connection, _, method, version, uploadData, uploadSize, conCls in
    guard let cls, let connection, let method, let uploadSize, let raw = conCls?.pointee else { return .NO }
    // Both objects are kept alive by their owners for the whole call (the daemon holds the server, the
    // connection its context): borrowed without a retain and a release each, twice a request.
    let keepGoing = Unmanaged<Server>.fromOpaque(cls)._withUnsafeGuaranteedRef { server in
        Unmanaged<RequestContext>.fromOpaque(raw)._withUnsafeGuaranteedRef { context in
            server.handle(
                context, connection: ConnectionHandle(connection), method: method, version: version,
                uploadData: uploadData, uploadSize: uploadSize)
        }
    }
    return keepGoing ? .YES : .NO
}

/// MHD_OPTION_NOTIFY_COMPLETED: every request that got a context ends here exactly once,
/// answered, aborted or timed out.
private let endRequest: MHD_RequestCompletedCallback = { cls, _, conCls, termination in
    guard let cls, let conCls, let raw = conCls.pointee else { return }
    conCls.pointee = nil
    Unmanaged<Server>.fromOpaque(cls)._withUnsafeGuaranteedRef { server in
        Unmanaged<RequestContext>.fromOpaque(raw)._withUnsafeGuaranteedRef { context in
            guard context.inUse else { return }
            server.complete(context, termination: termination.rawValue)
        }
    }
}

/// MHD_OPTION_NOTIFY_CONNECTION: makes a connection's context when it starts; when it closes,
/// completes the request still under way in it (one that never reached a handler) and releases it.
private let connectionChanged: MHD_NotifyConnectionCallback = { cls, _, socketContext, code in
    guard let cls, let socketContext else { return }
    // Compared by raw value: a case a newer libmicrohttpd adds would be undefined behaviour in a switch.
    if code.rawValue == MHD_ConnectionNotificationCode.CONNECTION_NOTIFY_STARTED.rawValue {
        socketContext.pointee = Unmanaged.passRetained(RequestContext()).toOpaque()
        return
    }
    guard let raw = socketContext.pointee else { return }
    socketContext.pointee = nil
    let context = Unmanaged<RequestContext>.fromOpaque(raw).takeRetainedValue()
    if context.inUse { Unmanaged<Server>.fromOpaque(cls)._withUnsafeGuaranteedRef { $0.completeUnhandled(context) } }
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
/// Compared by raw value: a case a newer libmicrohttpd adds would be undefined behaviour in a switch.
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
/// `@unchecked Sendable`: libmicrohttpd allows MHD_resume_connection from any thread.
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
