private import CMicroHTTPD
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// What the server does in each access-handler call of a request (docs/libmicrohttpd.md, "The access handler's calls"):
// the first call examines the headers, body calls feed the upload, the final call routes and answers.

extension Server {
    /// One access-handler call; returns false to close the connection without a response.
    func handle(
        _ context: RequestContext, connection: ConnectionHandle, method: UnsafePointer<CChar>,
        version: UnsafePointer<CChar>?, uploadData: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>
    ) -> Bool {
        switch context.phase {
        case .new:
            // Answering here closes the connection in 0.9.75, so only refusals answer now.
            context.method = HTTPMethod(cString: method)
            let http11 = version.map { strcmp($0, "HTTP/1.1") == 0 } ?? false
            return examineHeaders(context, connection, hostRequired: http11)
        case .reading:
            guard uploadSize.pointee == 0 else { return receive(context, connection, uploadData, uploadSize) }
            return answer(context, connection)
        case .suspended:
            // Called again once the async handler resumed the connection; nothing to do before that.
            guard let response = context.pendingResponse else { return true }
            context.pendingResponse = nil
            return send(response, context, connection)
        case .answered:
            uploadSize.pointee = 0
            return true
        case .closing:
            return false
        }
    }

    // The first call of every request runs `examineHeaders`, and a page or a static file runs little
    // else of ours. What a request rarely needs (a refusal, a body, a `Request`'s fields) is in
    // functions of its own, kept out of line: code that sits between the lines every request runs
    // makes each request read more of it, and code read per request costs here besides the
    // instructions run (docs/benchmarks.md, "What a request costs").
    private func examineHeaders(_ context: RequestContext, _ connection: ConnectionHandle, hostRequired: Bool) -> Bool {
        guard context.targetIsClean, context.method.isToken else { return refuseRequestLine(context, connection) }
        let headerSize = CMicroHTTPD_requestHeaderSize(connection.pointer)
        guard headerSize <= configuration.maxHeaderSize else {
            return refuseHeaderSize(headerSize, context, connection)
        }
        // A static file needs no `Request`, nor does a light route's request unless its light handler
        // declines: their fields are not copied out of libmicrohttpd's table.
        if let (found, text) = router.exact(for: context.method, rawTarget: context.rawTargetBytes) {
            switch found {
            case .file(let entry): context.file = entry
            case .route(let route): context.literal = route
            }
            context.name(target: text)
        }
        let light = context.literal?._withUnsafeGuaranteedRef { $0.light != nil } ?? false
        var scan = HeaderScan(fields: context.file == nil && !light ? HTTPHeaders() : nil)
        withUnsafeMutablePointer(to: &scan) { pointer in
            _ = MHD_get_connection_values(connection.pointer, MHD_ValueKind.HEADER_KIND, scanHeader, pointer)
        }
        context.acceptLanguage = scan.acceptLanguage
        context.hasCookie = scan.hasCookie
        // A `Cookie` field is in the memory twice, as sent and parsed: past the limit, even a refusal
        // worded for the client may find no room, and libmicrohttpd would close without a word.
        if scan.cookieCost > 0, headerSize + scan.cookieCost > configuration.maxHeaderSize {
            return refuseHeaderSize(headerSize + scan.cookieCost, context, connection)
        }
        // Taken, not copied: a copy of the fields would cost a retain and a release per stored array.
        if let fields = scan.fields.take(), let refused = adopt(fields, context, connection) { return refused }
        let framing = scan.framing
        // HTTP/1.1 requires exactly one Host (RFC 9112 §3.2); HTTP/1.0 may leave it out.
        if scan.badName != nil || scan.hosts > 1 || (hostRequired && scan.hosts == 0) || framing.contentLengths > 1 {
            let hosts = hostRequired || scan.hosts > 1 ? scan.hosts : 1
            return refuseHeaders(badName: scan.badName, hosts: hosts, light: light, context, connection)
        }
        guard framing.transferEncoding == nil, framing.contentLength == nil else {
            return examineBody(framing.contentLength, framing.transferEncoding, light: light, context, connection)
        }
        // No body: what `UploadState.checkHeaders` accepts at once.
        context.upload = UploadState(
            limit: configuration.maxBodySize, deadlineSeconds: configuration.bodyDeadline, now: context.startNanoseconds
        )
        context.phase = .reading
        return true
    }

    /// Refuses a request line that cannot be routed as sent: its target or its method.
    @inline(never)
    private func refuseRequestLine(_ context: RequestContext, _ connection: ConnectionHandle) -> Bool {
        guard context.targetIsClean else {
            let message =
                "the request target holds a space, a control character, '#' or a byte that is not UTF-8: percent-encode it (RFC 3986)"
            return send(refusal(.badRequest, message, context), context, connection, close: true)
        }
        // `GE(T` is a malformed request line, not a method this server lacks (RFC 9110 §9.1).
        let message = "the method is not a token (RFC 9110 §9.1): letters, digits and !#$%&'*+-.^_`|~ only"
        return send(refusal(.badRequest, message, context), context, connection, close: true)
    }

    /// Refuses a request line and header fields over `maxHeaderSize` (RFC 6585 §5). libmicrohttpd
    /// reads a header block until its pool is full, and one that leaves too little of the pool for
    /// the answer's header would get no answer at all: the connection closes without a word. While
    /// `plainRefusalRoom` of the pool is left, the refusal is an ordinary one, worded for the client;
    /// with less, a plain-text one is written to the socket before the connection closes.
    @inline(never)
    private func refuseHeaderSize(_ size: Int, _ context: RequestContext, _ connection: ConnectionHandle) -> Bool {
        let message =
            "the request line and header fields take \(size) bytes, more than the \(configuration.maxHeaderSize) this server reads: send fewer or shorter fields (cookies, most often)"
        guard configuration.connectionMemory - size < Self.plainRefusalRoom else {
            return refuse(.requestHeaderFieldsTooLarge, message, light: true, context, connection)
        }
        let plain = Response.error(.requestHeaderFieldsTooLarge, message)
        context.phase = .answered
        (context.sentStatus, context.sentBytes) = plain.sentStatusAndCount
        // The socket is libmicrohttpd's, and this answer is the last thing written to it: returning
        // false makes libmicrohttpd close the connection. Nothing of an earlier answer is pending, as
        // libmicrohttpd reads a request only once the previous answer is sent.
        writeLast(Self.closingMessage(plain, head: context.method == .head), to: CMicroHTTPD_socket(connection.pointer))
        return false
    }

    /// `response` as HTTP/1.1 bytes that close the connection, its body left out for a HEAD (RFC 9110
    /// §9.3.2): for an answer libmicrohttpd has no room to build.
    static func closingMessage(_ response: Response, head: Bool) -> String {
        let body = response.body.bytes
        var message = "HTTP/1.1 \(response.status)\r\n"
        for field in response.headers { message += "\(field.name): \(field.value)\r\n" }
        message += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return head ? message : message + String(decoding: body, as: UTF8.self)
    }

    /// Pool bytes an ordinary refusal's header needs at most: with less left, `refuseHeaderSize`
    /// writes its own. Half the room kept: libmicrohttpd failed a plain 404's header with under 430
    /// bytes left, the event page's with under 630.
    static let plainRefusalRoom = ServerConfiguration.answerHeaderRoom / 2

    /// Keeps the request's fields, for a `Request`, with its parsed target. Nil when it did; when the
    /// target cannot be parsed, the request is refused, and the answer is what the handler returns.
    @inline(never)
    private func adopt(_ fields: HTTPHeaders, _ context: RequestContext, _ connection: ConnectionHandle) -> Bool? {
        context.headers = fields
        if let literal = context.literal {
            context.target = literal._withUnsafeGuaranteedRef(\.target)
            return nil
        }
        do {
            context.target = try RequestTarget.parse(context.rawTarget)
            return nil
        } catch {
            return send(refusal(.badRequest, error.description, context), context, connection, close: true)
        }
    }

    /// Refuses a request, with its fields read: one worded for what the client accepts (`refusal`),
    /// so a light route's request gets its fields copied after all.
    private func refuse(
        _ status: HTTPStatus, _ message: String, light: Bool, _ context: RequestContext, _ connection: ConnectionHandle
    ) -> Bool {
        if light { collectHeaders(context, connection) }
        return send(refusal(status, message, context), context, connection, close: true)
    }

    /// Refuses a header block with a field name that is no token, a second `Host` or a second
    /// `Content-Length`: framing must not rest on a field that a proxy in front may read differently
    /// (RFC 9112 §5.1, §3.2).
    @inline(never)
    private func refuseHeaders(
        badName: UnsafePointer<CChar>?, hosts: Int, light: Bool, _ context: RequestContext,
        _ connection: ConnectionHandle
    ) -> Bool {
        let message =
            HeaderScan.problem(badName: badName, hosts: hosts) ?? "a request must carry one Content-Length"
        return refuse(.badRequest, message, light: light, context, connection)
    }

    /// The first call of a request that declares a body: refused before it is read, or accepted with
    /// room for it.
    @inline(never)
    private func examineBody(
        _ contentLength: String?, _ transferEncoding: String?, light: Bool, _ context: RequestContext,
        _ connection: ConnectionHandle
    ) -> Bool {
        if context.file == nil, context.literal == nil, transferEncoding != nil || contentLength ?? "0" != "0" {
            // A body for a path that is not there, or not for this method, is refused before it is read
            // and before `100 Continue` asks for it (RFC 9110 §10.1.1): the client learns what is wrong,
            // not the body's size.
            let resolution = router.resolve(context.method, context.target.segments)
            switch resolution {
            case .notFound, .methodNotAllowed:
                return send(unrouted(resolution, context), context, connection, close: true)
            case .missing(let responder, let parameters):
                return send(missing(responder, parameters, context), context, connection, close: true)
            case .found, .options: break
            }
        }
        let verdict = UploadState.checkHeaders(
            method: context.method, contentLength: contentLength, transferEncoding: transferEncoding,
            limit: configuration.maxBodySize)
        switch verdict {
        case .reject(let status, let message):
            return refuse(status, message, light: light, context, connection)
        case .accept(let expectedLength):
            context.upload = UploadState(
                limit: configuration.maxBodySize, deadlineSeconds: configuration.bodyDeadline,
                now: context.startNanoseconds, expectedLength: expectedLength)
            // Room for a declared length is made up front only up to `bodyReservation`: a client may
            // declare gigabytes and send nothing, and an allocation that size fails the whole process.
            // A larger body grows as it arrives.
            if let expectedLength, expectedLength > 0 {
                context.bodyHeld = true
                context.body.reserveCapacity(min(expectedLength, Self.bodyReservation))
            }
            if expectedLength ?? 1 > 0 { noteReceiving(context, connection) }
            context.phase = .reading
            return true
        }
    }

    /// Copies the fields into the context, with the literal route's target, for a request examined
    /// without them (a light route's) that now needs a `Request` or a refusal worded for its client.
    private func collectHeaders(_ context: RequestContext, _ connection: ConnectionHandle) {
        // The scan is written out here as in `examineHeaders`, not shared through a function that
        // returns it: returning the scan would copy it, and count references to its fields, per request.
        var scan = HeaderScan(fields: HTTPHeaders())
        withUnsafeMutablePointer(to: &scan) { pointer in
            _ = MHD_get_connection_values(connection.pointer, MHD_ValueKind.HEADER_KIND, scanHeader, pointer)
        }
        if let fields = scan.fields.take() { context.headers = fields }
        if let literal = context.literal { context.target = literal._withUnsafeGuaranteedRef(\.target) }
    }

    /// The most a request's declared `Content-Length` reserves before its bytes arrive.
    static let bodyReservation = 1 << 20

    private func receive(
        _ context: RequestContext, _ connection: ConnectionHandle, _ data: UnsafePointer<CChar>?,
        _ size: UnsafeMutablePointer<Int>
    ) -> Bool {
        let count = size.pointee
        size.pointee = 0
        guard var upload = context.upload else { return false }
        let keep = upload.receive(count, now: monotonicNanoseconds())
        context.upload = upload
        if keep, let data {
            context.bodyHeld = true
            context.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: count))
        } else if upload.phase == .discarding, !context.body.isEmpty {
            context.body = []  // over the limit: keep nothing of it
        }
        guard upload.phase != .abandoned else { return false }
        // libmicrohttpd 0.9.75 takes a short read as the end of what the socket has, so under
        // edge-triggered epoll it misses a close that came with these bytes, and would hold the
        // connection until the idle timeout. While the body is short, look for that close here.
        if upload.isShort, Self.clientHasClosed(connection) {
            context.clientLeft = true
            return false
        }
        return true
    }

    /// Whether the client has closed its side, or reset the connection, with nothing left unread.
    /// A peek does not wait and takes nothing: on an open, empty socket it fails with `EAGAIN`.
    private static func clientHasClosed(_ connection: ConnectionHandle) -> Bool {
        let socket = CMicroHTTPD_socket(connection.pointer)
        guard socket >= 0 else { return false }
        var byte: UInt8 = 0
        let read = recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return read == 0 || (read < 0 && errno == ECONNRESET)
    }

    private func answer(_ context: RequestContext, _ connection: ConnectionHandle) -> Bool {
        // A shutdown past its grace period may have answered it already, while its body arrived.
        if context.receiving, !endReceiving(context) { return false }
        if let upload = context.upload, upload.phase == .discarding { return refuseOverLimit(context, connection) }
        if let file = context.file { return answer(file, context, connection) }
        if let literal = context.literal {
            return literal._withUnsafeGuaranteedRef { literal in
                // Never one with a body (a GET's is refused with the headers): a `Request` would carry it.
                if let light = literal.light, !context.bodyHeld,
                    let response = light(
                        RequestHead(
                            method: context.method, connection: connection.pointer,
                            acceptLanguage: context.acceptLanguage, hasCookie: context.hasCookie))
                {
                    return send(response, context, connection)
                }
                return run(literal, context, connection)
            }
        }
        return route(context, connection)
    }

    /// The answer to a body that went over the limit, read and dropped.
    @inline(never)
    private func refuseOverLimit(_ context: RequestContext, _ connection: ConnectionHandle) -> Bool {
        let message = "the request body is over the limit of \(configuration.maxBodySize) bytes"
        return send(refusal(.contentTooLarge, message, context), context, connection, close: true)
    }

    /// A static file, or its `304` when the client holds it already.
    @inline(never)
    private func answer(
        _ file: Unmanaged<StaticFiles.Entry>, _ context: RequestContext, _ connection: ConnectionHandle
    ) -> Bool {
        let condition = MHD_lookup_connection_value(connection.pointer, MHD_ValueKind.HEADER_KIND, "If-None-Match")
        let response = file._withUnsafeGuaranteedRef { $0.response(ifNoneMatch: condition.map { String(cString: $0) }) }
        return send(response, context, connection)
    }

    /// A literal route's full handler, with a `Request`: its light handler declined, or it has none.
    @inline(never)
    private func run(_ literal: LiteralRoute, _ context: RequestContext, _ connection: ConnectionHandle) -> Bool {
        if literal.light != nil { collectHeaders(context, connection) }
        return run(literal.responder, RouteParameters(), context, connection)
    }

    /// A request routed by its parsed path.
    @inline(never)
    private func route(_ context: RequestContext, _ connection: ConnectionHandle) -> Bool {
        let resolution = router.resolve(context.method, context.target.segments)
        switch resolution {
        case .notFound, .methodNotAllowed: return send(unrouted(resolution, context), context, connection)
        case .options(let allow): return send(Router.options(allow), context, connection)
        case .found(let responder, let parameters), .missing(let responder, let parameters):
            return run(responder, parameters, context, connection)
        }
    }

    /// The answer to a request with a body whose route names nothing that exists, given before the body
    /// is read: its handler's, called without the body, which a request for nothing has no use for. An
    /// async handler, or one whose answer is deferred, cannot answer before the body (a suspension
    /// waits for the final call): the server's own 404 answers for it.
    private func missing(
        _ responder: Responder, _ parameters: RouteParameters, _ context: RequestContext
    ) -> Response {
        if case .immediate(let handler) = responder {
            let response = handler(request(for: context, parameters))
            if case .later = response.source {} else { return response }
        }
        return unrouted(.notFound, context)
    }

    /// The server's own answer to a request that no route runs: a 404, or a 405 with `Allow`.
    private func unrouted(_ resolution: Router.Resolution, _ context: RequestContext) -> Response {
        let path = Request.pathText(context.target.segments)
        guard case .methodNotAllowed(let allow) = resolution else {
            return refusal(.notFound, "no resource at \(path)", context)
        }
        let methods = allow.map(\.rawValue).joined(separator: ", ")
        // A HEAD's headers are its GET's (RFC 9110 §9.3.2), Content-Length included: the same words.
        let method = context.method == .head ? HTTPMethod.get : context.method
        // Cut like the path: an answer must not echo a 60 KB method back.
        let named = method.rawValue.count > 40 ? String(method.rawValue.prefix(40)) + "…" : method.rawValue
        var response = refusal(.methodNotAllowed, "\(named) is not allowed at \(path): it takes \(methods)", context)
        response.headers["Allow"] = methods
        return response
    }

    /// The request a handler sees: what the context holds, the route's `parameters` and the body so far.
    private func request(for context: RequestContext, _ parameters: RouteParameters) -> Request {
        var request = Request(
            method: context.method, pathSegments: context.target.segments, query: context.target.query,
            headers: context.headers, remoteAddress: context.remoteAddress, body: context.body)
        request.parameters = parameters
        return request
    }

    /// Runs a route's handler on the request the context describes.
    private func run(
        _ responder: Responder, _ parameters: RouteParameters, _ context: RequestContext, _ connection: ConnectionHandle
    ) -> Bool {
        // The fields move from the context into the request, which is their last reader: a copy would
        // retain each and release it twice, once with the request and once with the context. Built
        // here rather than through `request(for:_:)`, which copies the fields.
        var request = Request(
            method: context.method, pathSegments: moved(&context.target.segments, []),
            query: moved(&context.target.query, QueryParameters()), headers: moved(&context.headers, HTTPHeaders()),
            remoteAddress: context.remoteAddress, body: moved(&context.body, []))
        request.parameters = parameters
        switch responder {
        case .immediate(let handler):
            let response = handler(request)
            if case .later(let work) = response.source {
                suspend(context, connection, running: { _ in await work() }, for: request)
                return true
            }
            return send(response, context, connection)
        case .deferred(let handler):
            suspend(context, connection, running: handler, for: request)
            return true
        }
    }

    /// The server's own error answer: `configuration.errorResponse`'s, or plain text.
    private func refusal(_ status: HTTPStatus, _ message: String, _ context: RequestContext) -> Response {
        configuration.errorResponse?(status, message, context.headers) ?? .error(status, message)
    }

    /// Queues `response`; the context records what was sent for the access log.
    func send(
        _ response: Response, _ context: RequestContext, _ connection: ConnectionHandle, close: Bool = false
    ) -> Bool {
        context.phase = .answered
        let (status, count) = response.sentStatusAndCount
        context.sentStatus = status
        context.sentBytes = count
        let closing = close || draining.load(ordering: .relaxed)
        switch response.source {
        case .prepared(let prepared) where !closing:
            return MHD_queue_response(connection.pointer, UInt32(status), prepared.handle) == .YES
        case .reusable(let instance) where !closing:
            // Held until the request completes: only then may another request rewrite the response.
            context.reusable = instance
            return MHD_queue_response(connection.pointer, UInt32(status), instance.handle) == .YES
        case .later, .built, .prepared, .reusable:
            return sendBuilt(response, context, connection, closing: closing)
        }
    }

    /// Queues a response built for this request alone, or one that must close the connection.
    @inline(never)
    private func sendBuilt(
        _ response: Response, _ context: RequestContext, _ connection: ConnectionHandle, closing: Bool
    ) -> Bool {
        if case .later = response.source {
            // `later` is run where a handler's answer is taken; anywhere else it is a bug on our side.
            logger.error("a deferred response reached send", metadata: ["target": "\(context.rawTarget)"])
            return send(.error(.internalServerError, "the server could not answer"), context, connection, close: true)
        }
        let handle: OpaquePointer
        do {
            handle = try MHDResponse.make(response, closeConnection: closing)
        } catch {
            // A handler put CR/LF in a header: a bug on our side, never sent on (header injection).
            logger.error("response refused", metadata: ["reason": "\(error)", "target": "\(context.rawTarget)"])
            let fallback = Response.error(.internalServerError, "the server built an invalid response")
            context.sentStatus = fallback.status.code
            guard let safe = try? MHDResponse.make(fallback, closeConnection: true) else { return false }
            handle = safe
        }
        defer { MHDResponse.destroy(handle) }
        return MHD_queue_response(connection.pointer, UInt32(context.sentStatus ?? 500), handle) == .YES
    }

    /// Called from `endRequest`, once per request; `termination` is nil for a request libmicrohttpd
    /// ended before any handler call (`completeUnhandled`).
    func complete(_ context: RequestContext, termination: UInt32?) {
        defer { context.finish() }
        if context.receiving { _ = endReceiving(context) }
        inFlight.add(-1)
        // Called in place, not copied out first: a copy of the closure costs a retain and a release.
        guard configuration.accessLog != nil else { return }
        let completed = MHD_RequestTerminationCode.REQUEST_TERMINATED_COMPLETED_OK.rawValue
        let reason = termination == completed && !context.clientLeft ? nil : Self.abortReason(context, termination)
        configuration.accessLog?(
            AccessRecord(
                method: context.method.rawValue, target: context.rawTarget,
                status: reason == nil || context.sentStatus != nil ? context.sentStatus : nil,
                bytes: context.sentBytes,
                nanoseconds: monotonicNanoseconds() &- context.startNanoseconds,
                remoteAddress: context.remoteAddress, abortReason: reason))
    }
}

/// Writes `text` to `socket` once, without waiting: a last word before the connection closes, so one
/// that does not fit at once is cut, and a client gone is no error.
func writeLast(_ text: String, to socket: Int32) {
    guard socket >= 0 else { return }
    var text = text
    text.withUTF8 { bytes in _ = send(socket, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
}

/// `value`, taken out of its place, which is left holding `empty`: a move, with no retain or release.
@inline(__always)
private func moved<Value>(_ value: inout Value, _ empty: Value) -> Value {
    var taken = empty
    swap(&taken, &value)
    return taken
}

extension Server {
    /// Why a request did not complete as it should, for its log line.
    @inline(never)
    fileprivate static func abortReason(_ context: RequestContext, _ termination: UInt32?) -> String? {
        // A client found gone mid-body was closed on by the handler, which the library reports as an error.
        context.clientLeft
            ? terminationReason(MHD_RequestTerminationCode.REQUEST_TERMINATED_CLIENT_ABORT.rawValue)
            : termination.map(terminationReason) ?? "ended by libmicrohttpd before any handler call"
    }

    /// Called from the connection's end (or its next request) for a request that libmicrohttpd ended
    /// before any handler call without a completion (its memory for the headers ran out; its log line
    /// says so). Logged with the method unknown (`-`).
    func completeUnhandled(_ context: RequestContext) {
        complete(context, termination: nil)
    }
}

/// What one pass over libmicrohttpd's header table gathers. Not copyable: the compiler copied it
/// (a retain and a release per field) where it could only be read in place.
private struct HeaderScan: ~Copyable {
    /// Every field, in order, for a request a handler will see; nil when only the framing is wanted.
    var fields: HTTPHeaders?
    /// How many `Content-Length` fields came, the first one's value, and every `Transfer-Encoding`
    /// field's value joined as one list (RFC 9110 §5.3), so `chunked` then `gzip` ends in `gzip`.
    var framing: (contentLengths: Int, contentLength: String?, transferEncoding: String?) = (0, nil, nil)
    /// How many `Host` fields came.
    var hosts = 0
    /// The first field name that is no token (`Transfer-Encoding ` has a space in it), in
    /// libmicrohttpd's table: a pointer, not a string, so a scan of well-formed fields costs nothing more.
    var badName: UnsafePointer<CChar>?
    /// The first `Accept-Language` field's value in libmicrohttpd's table, and whether a `Cookie`
    /// field came: what a page asks of every request (`RequestHead`), noted here rather than looked
    /// up again, a walk of the table each.
    var acceptLanguage: UnsafePointer<CChar>?
    var hasCookie = false
    /// The connection memory libmicrohttpd 0.9.75 takes to parse the first `Cookie` field, besides the
    /// field itself: a copy of its value and a 48-byte record per cookie (docs/libmicrohttpd.md,
    /// "Connection memory").
    var cookieCost = 0

    /// Why a header block is refused (a field name that is no token, no `Host` or a second), if it is.
    static func problem(badName: UnsafePointer<CChar>?, hosts: Int) -> String? {
        if let badName {
            // Controls and DEL shown as `\x09`, never written raw into a message or a log.
            let shown = String(cString: badName).unicodeScalars.map { scalar in
                guard scalar.value < 0x20 || scalar.value == 0x7F else { return String(scalar) }
                let hex = String(scalar.value, radix: 16)
                return "\\x" + (hex.count < 2 ? "0" + hex : hex)
            }.joined()
            return
                "the header field name '\(shown.prefix(60))' is not a token: no space may stand before the colon (RFC 9112 §5.1)"
        }
        return hosts != 1 ? "a request must carry one Host field (RFC 9112 §3.2)" : nil
    }

    init(fields: HTTPHeaders?) {
        self.fields = fields
        // A browser sends a dozen fields: one allocation for them all, not one per doubling.
        self.fields?.reserveCapacity(16)
    }
}

/// Notes one header field in the `HeaderScan` passed as `cls`.
private let scanHeader: MHD_KeyValueIterator = { cls, _, name, value in
    guard let cls, let name else { return .YES }
    let scan = cls.assumingMemoryBound(to: HeaderScan.self)
    let text = { value.map { String(cString: $0) } ?? "" }
    if cNameMatches(name, "content-length") {
        scan.pointee.framing.contentLengths += 1
        if scan.pointee.framing.contentLength == nil { scan.pointee.framing.contentLength = text() }
    } else if cNameMatches(name, "transfer-encoding") {
        scan.pointee.framing.transferEncoding =
            scan.pointee.framing.transferEncoding.map { "\($0), \(text())" } ?? text()
    } else if cNameMatches(name, "host") {
        scan.pointee.hosts += 1
    } else if cNameMatches(name, "accept-language") {
        if scan.pointee.acceptLanguage == nil { scan.pointee.acceptLanguage = value }
    } else if cNameMatches(name, "cookie") {
        if !scan.pointee.hasCookie, let value { scan.pointee.cookieCost = parsedCookieCost(value) }
        scan.pointee.hasCookie = true
    } else if scan.pointee.badName == nil, !isToken(name) {
        scan.pointee.badName = name
    }
    // Optional chaining skips the copy when only the framing is wanted.
    scan.pointee.fields?.add(cName: name, cValue: value)
    return .YES
}

/// What libmicrohttpd's parse of the `Cookie` field `value` takes of the connection's memory.
private func parsedCookieCost(_ value: UnsafePointer<CChar>) -> Int {
    var length = 0
    var cookies = 1
    while value[length] != 0 {
        if value[length] == CChar(UInt8(ascii: ";")) { cookies += 1 }
        length += 1
    }
    return length + 1 + 48 * cookies
}

extension HTTPMethod {
    /// Whether the method is a token, as RFC 9110 §9.1 requires: the common ones are, without a look.
    var isToken: Bool {
        if self == .get || self == .post || self == .head { return true }
        return !rawValue.isEmpty && rawValue.utf8.allSatisfy(isTokenByte)
    }
}

/// Whether `byte` may be in a token (`tchar`, RFC 9110 §5.6.2). Constant ranges the compiler turns
/// into a few comparisons: a bit table in a global would be read through its lazy initializer on
/// every byte of every field name.
func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "!"), UInt8(ascii: "#")...UInt8(ascii: "'"),
        UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"),
        UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
        true
    default: false
    }
}

/// Whether the C string `name` is a non-empty token, as a header field name must be.
private func isToken(_ name: UnsafePointer<CChar>) -> Bool {
    var index = 0
    while name[index] != 0 {
        guard isTokenByte(UInt8(bitPattern: name[index])) else { return false }
        index += 1
    }
    return index > 0
}

/// Whether the C string `name` is `lowercased`, ASCII case-insensitively (header names are tokens).
func cNameMatches(_ name: UnsafePointer<CChar>, _ lowercased: StaticString) -> Bool {
    let expected = lowercased.utf8Start
    var index = 0
    while index < lowercased.utf8CodeUnitCount {
        // A shorter name ends in NUL, which matches no letter, so nothing past it is read.
        guard asciiLowercased(UInt8(bitPattern: name[index])) == expected[index] else { return false }
        index += 1
    }
    return name[index] == 0
}

extension Request {
    /// A path for messages: decoded segments joined, length-capped so a message stays readable.
    public static func pathText(_ segments: [String]) -> String {
        let path = "/" + segments.joined(separator: "/")
        return path.count > 200 ? String(path.prefix(200)) + "…" : path
    }
}
