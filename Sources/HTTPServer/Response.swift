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
            if let lease { return lease.headers }
            return prepared?.response.headers ?? builtHeaders
        }
        set {
            detach()
            builtHeaders = newValue
        }
    }
    /// The content.
    public var body: ResponseBody {
        get {
            if let lease { return lease.instance.bodyCopy(count: lease.template.byteCount) }
            return prepared?.response.body ?? builtBody ?? .empty
        }
        set {
            detach()
            builtBody = newValue
        }
    }

    // A prepared response is sent as it was prepared: it holds only the reference, so sending a static
    // file touches no shared header list or body, and changing any part first turns it into a built one.
    private var builtStatus: HTTPStatus
    private var builtHeaders: HTTPHeaders
    private var builtBody: ResponseBody?
    /// A response built once whose libmicrohttpd form is reused for every request that sends it.
    private(set) var prepared: PreparedResponse?
    /// A template's response, reused once this request is done with it (`ResponseTemplate`).
    private(set) var lease: ResponseLease?
    /// For `later(_:)`: the work whose response is sent instead of this one.
    private(set) var deferredWork: (@Sendable () async -> Response)?

    /// A response with the given parts.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: ResponseBody = .empty) {
        builtStatus = status
        builtHeaders = headers
        builtBody = body
        prepared = nil
        lease = nil
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
        self.prepared = prepared
        lease = nil
    }

    /// Sends a template's response as its lease holder filled it.
    init(_ lease: ResponseLease) {
        builtStatus = lease.template.status
        builtHeaders = HTTPHeaders()
        builtBody = nil
        prepared = nil
        self.lease = lease
    }

    /// The status code and body size sent, read without copying a prepared response's parts.
    var sentStatusAndCount: (status: Int, count: Int) {
        (builtStatus.code, lease?.template.byteCount ?? prepared?.byteCount ?? builtBody?.count ?? 0)
    }

    /// Copies a prepared or template response's parts into this one before one of them changes.
    private mutating func detach() {
        guard prepared != nil || lease != nil else { return }
        builtHeaders = headers
        builtBody = body
        prepared = nil
        lease = nil
    }

    /// A plain-text answer whose body is exactly `text`.
    public static func text(_ status: HTTPStatus, _ text: String) -> Response {
        Response(status: status, contentType: "text/plain; charset=utf-8", body: text)
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
    ///     .later { await orders.store(request.body) ? .redirect(to: "/thanks") : .error(.badRequest, "…") }
    /// }
    /// ```
    public static func later(_ work: @escaping @Sendable () async -> Response) -> Response {
        var response = Response()
        response.deferredWork = work
        return response
    }

    /// A `303 See Other` to `location`, the answer to a successful form post.
    public static func redirect(to location: String, status: HTTPStatus = .seeOther) -> Response {
        Response(status: status, headers: ["Location": location], body: .empty)
    }
}
