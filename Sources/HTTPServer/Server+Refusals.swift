private import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The server's own answers, for requests no handler answers: refusals of what cannot be read as
// sent, 404s and 405s. Each is worded for what the client accepts (`ServerConfiguration.errorResponse`)
// and closes the connection when the rest of the request cannot be trusted.

extension Server {
    /// Refuses a request line that cannot be routed as sent: its target or its method.
    func refuseRequestLine(_ context: RequestContext, _ connection: ConnectionHandle) -> Bool {
        guard context.targetIsClean else {
            let message =
                "the request target holds a space, a control character, '#' or a byte that is not UTF-8: percent-encode it (RFC 3986)"
            return send(refusal(.badRequest, message, connection), context, connection, close: true)
        }
        // `GE(T` is a malformed request line, not a method this server lacks (RFC 9110 §9.1).
        let message = "the method is not a token (RFC 9110 §9.1): letters, digits and !#$%&'*+-.^_`|~ only"
        return send(refusal(.badRequest, message, connection), context, connection, close: true)
    }

    /// Refuses a request line and header fields over `maxHeaderSize` (RFC 6585 §5). libmicrohttpd
    /// reads a header block until its pool is full, and one that leaves too little of the pool for
    /// the answer's header would get no answer at all: the connection closes without a word. While
    /// `plainRefusalRoom` of the pool is left, the refusal is an ordinary one, worded for the client;
    /// with less, a plain-text one is written to the socket before the connection closes.
    func refuseHeaderSize(_ size: Int, _ context: RequestContext, _ connection: ConnectionHandle) -> Bool {
        let message =
            "the request line and header fields take \(size) bytes, more than the \(configuration.maxHeaderSize) this server reads: send fewer or shorter fields (cookies, most often)"
        guard configuration.connectionMemory - size < Self.plainRefusalRoom else {
            return send(refusal(.requestHeaderFieldsTooLarge, message, connection), context, connection, close: true)
        }
        let plain = Response.error(.requestHeaderFieldsTooLarge, message)
        let (status, bytes) = plain.sentStatusAndCount
        context.phase = .closing(.init(status: status, bytes: bytes))
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

    /// The answer to a request with a body whose route names nothing that exists, given before the body
    /// is read: its handler's, called without the body, which a request for nothing has no use for. A
    /// handler that answers `later` cannot answer before the body (a suspension waits for the final
    /// call): the server's own 404 answers for it.
    func missing(
        _ handler: Handler, _ target: RequestTarget, _ parameters: RouteParameters, _ notes: LibraryFieldNotes,
        _ context: RequestContext, _ connection: ConnectionHandle
    ) -> Response {
        let response = handler(
            RequestView(
                method: context.method, target: .parsed(target, parameters), remoteAddress: context.remoteAddress,
                body: [], connection: connection.pointer, notes: notes))
        if case .later = response.source { return unrouted(.notFound, target.segments, context, connection) }
        return response
    }

    /// The server's own answer to a request that no route runs: a 404, or a 405 with `Allow`.
    func unrouted(
        _ resolution: Router.Resolution, _ segments: [String], _ context: RequestContext, _ connection: ConnectionHandle
    ) -> Response {
        let path = Request.pathText(segments)
        guard case .methodNotAllowed(let allow) = resolution else {
            return refusal(.notFound, "no resource at \(path)", connection)
        }
        let methods = allow.map(\.rawValue).joined(separator: ", ")
        // A HEAD's headers are its GET's (RFC 9110 §9.3.2), Content-Length included: the same words.
        let method = context.method == .head ? HTTPMethod.get : context.method
        // Cut like the path: an answer must not echo a 60 KB method back.
        let named = method.rawValue.count > 40 ? String(method.rawValue.prefix(40)) + "…" : method.rawValue
        var response = refusal(
            .methodNotAllowed, "\(named) is not allowed at \(path): it takes \(methods)", connection)
        response.headers["Allow"] = methods
        return response
    }

    /// The server's own error answer: `configuration.errorResponse`'s, given the request's fields, or
    /// plain text.
    func refusal(_ status: HTTPStatus, _ message: String, _ connection: ConnectionHandle) -> Response {
        guard let errorResponse = configuration.errorResponse else { return .error(status, message) }
        return errorResponse(status, message, LibraryFieldNotes.copy(connection.pointer))
    }
}

/// Writes `text` to `socket` once, without waiting: a last word before the connection closes, so one
/// that does not fit at once is cut, and a client gone is no error.
func writeLast(_ text: String, to socket: Int32) {
    guard socket >= 0 else { return }
    var text = text
    text.withUTF8 { bytes in _ = send(socket, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
}
