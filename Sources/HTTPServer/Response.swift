/// An HTTP response a handler returns.
///
/// ```swift
/// Response(status: .ok, contentType: "text/plain; charset=utf-8", body: "ok")
/// ```
public struct Response: Sendable {
    /// The status code.
    public var status: HTTPStatus {
        get { builtStatus }
        set {
            detach()
            builtStatus = newValue
        }
    }
    /// The header fields; `Content-Length` and `Date` are added by the server.
    public var headers: HTTPHeaders {
        get {
            switch source {
            case .prepared(let prepared): prepared.response.headers
            case .pooled(let instance): instance.sentHeaders
            case .built, .later, .streamed: builtHeaders
            }
        }
        set {
            detach()
            builtHeaders = newValue
        }
    }
    /// The content.
    public var body: ResponseBody {
        get {
            switch source {
            case .prepared(let prepared): prepared.response.body
            case .pooled(let instance): instance.bodyCopy
            case .built, .later, .streamed: builtBody ?? .empty
            }
        }
        set {
            detach()
            builtBody = newValue
        }
    }

    /// Where the response comes from besides its built parts.
    enum Source: Sendable {
        /// The built parts are the response.
        case built
        /// A response built once whose libmicrohttpd form is reused for every request that sends it:
        /// sending it touches no shared header list or body.
        case prepared(PreparedResponse)
        /// A template's response, given back to its pool once the request that sent it has completed
        /// (`ResponseTemplate`).
        case pooled(PooledResponse)
        /// For `later(_:)`: the work whose response is sent instead of this one.
        case later(@Sendable () async -> Response)
        /// For `streamed(_:headers:_:)`: the body, made while it is sent.
        case streamed(StreamedBody)
    }

    private var builtStatus: HTTPStatus
    private var builtHeaders: HTTPHeaders
    private var builtBody: ResponseBody?
    // One field for the rarer kinds, not one apiece: every copy of a response retains each field.
    private(set) var source: Source

    /// A response with the given parts.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: ResponseBody = .empty) {
        builtStatus = status
        builtHeaders = headers
        builtBody = body
        source = .built
    }

    /// A response with a `Content-Type` and a UTF-8 text body.
    public init(status: HTTPStatus = .ok, contentType: String, body: String) {
        self.init(status: status, headers: ["Content-Type": contentType], body: ResponseBody(body))
    }

    /// Sends a response prepared once, without copying or rebuilding it.
    public init(_ prepared: PreparedResponse) {
        builtStatus = prepared.response.status
        builtHeaders = HTTPHeaders()
        builtBody = nil
        source = .prepared(prepared)
    }

    /// Sends a template's response as the request that took it filled it.
    init(_ instance: PooledResponse) {
        builtStatus = instance.status
        builtHeaders = HTTPHeaders()
        builtBody = nil
        source = .pooled(instance)
    }

    /// The status code and body size sent, read without copying a prepared response's parts.
    var sentStatusAndCount: (status: Int, count: Int) {
        switch source {
        case .prepared(let prepared): (builtStatus.code, prepared.byteCount)
        case .pooled(let instance): (builtStatus.code, instance.byteCount)
        case .built, .later, .streamed: (builtStatus.code, builtBody?.count ?? 0)
        }
    }

    /// Copies a prepared or pooled response's parts into this one before one of them changes.
    private mutating func detach() {
        switch source {
        case .prepared, .pooled:
            builtHeaders = headers
            builtBody = body
            source = .built
        case .built, .later, .streamed: break
        }
    }

    /// A plain-text answer whose body is exactly `text`, which a browser must not sniff into anything else.
    public static func text(_ status: HTTPStatus, _ text: String) -> Response {
        var response = Response(status: status, contentType: "text/plain; charset=utf-8", body: text)
        response.headers.add("X-Content-Type-Options", "nosniff")
        return response
    }

    /// A plain-text error naming the status and what was wrong: `413 Content Too Large\n<message>\n`.
    public static func error(_ status: HTTPStatus, _ message: String) -> Response {
        var response = Response(
            status: status, contentType: "text/plain; charset=utf-8", body: "\(status)\n\(message)\n")
        // The message may quote the request; a browser must never sniff it into HTML.
        response.headers.add("X-Content-Type-Options", "nosniff")
        return response
    }

    /// A response a Swift task computes: the server suspends the connection, which then holds no
    /// server thread, runs `work`, and sends what it returns. For a handler that must await something
    /// (a database, another service) before it can answer.
    ///
    /// ```swift
    /// routes.post("/orders") { request in
    ///     let body = request.body  // the view lives for the call alone: take what the work needs
    ///     return .later { await orders.store(body) ? .redirect(to: "/thanks") : .error(.badRequest, "…") }
    /// }
    /// ```
    public static func later(_ work: @escaping @Sendable () async -> Response) -> Response {
        var response = Response()
        response.source = .later(work)
        return response
    }

    /// A response whose body is made while it is sent (`StreamedBody`), with `status` and `headers`:
    /// the size is not known ahead, so no `Content-Length` is sent.
    ///
    /// ```swift
    /// var rows = table.makeIterator()
    /// return .streamed(.ok, headers: ["Content-Type": "text/csv"]) { bytes in
    ///     guard let row = rows.next() else { return false }
    ///     bytes += row.utf8
    ///     return true
    /// }
    /// ```
    public static func streamed(
        _ status: HTTPStatus, headers: HTTPHeaders, _ produce: @escaping (inout [UInt8]) throws -> Bool
    ) -> Response {
        var response = Response(status: status, headers: headers)
        response.source = .streamed(StreamedBody(produce))
        return response
    }

    /// A `303 See Other` to `location`, the answer to a successful form post.
    public static func redirect(to location: String, status: HTTPStatus = .seeOther) -> Response {
        Response(status: status, headers: ["Location": location], body: .empty)
    }
}
