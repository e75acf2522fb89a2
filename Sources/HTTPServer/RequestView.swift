private import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A request as a handler sees it, valid for the handler's call: every route's handler gets one.
///
/// Its header fields are read where libmicrohttpd keeps them, one at a time as the handler asks:
/// copying every field of every request would cost the busiest pages more than their own work. For
/// work that outlives the call (a task behind `Response.later`), `owned()` copies it into a
/// `Request`, which is `Sendable`.
///
/// ```swift
/// routes.get("/hello") { request in .text(.ok, "hello \(request.header("X-Name") ?? "you")") }
/// routes.post("/orders") { request in
///     let order = request.owned()
///     return .later { await orders.store(order.body) }
/// }
/// ```
public struct RequestView: ~Copyable {
    /// The method token (`HEAD` for a HEAD, which a GET route answers).
    public let method: HTTPMethod
    /// The peer's address, when the socket has one.
    public let remoteAddress: SocketAddress?
    /// The request content, at most `ServerConfiguration.maxBodySize` bytes.
    public let body: [UInt8]
    private let target: Target
    private let fields: Fields

    /// Where the path, query and parameters are.
    enum Target {
        /// In the route its raw target named (`LiteralRoute`), read from it when asked: the route is
        /// shared by every worker, and a count taken on it per request would pass its cache line
        /// between cores. Unretained, as the router holds it for the server's life.
        case literal(Unmanaged<LiteralRoute>)
        /// Parsed from this request's target, and captured by the route that matched.
        case parsed(RequestTarget, RouteParameters)
    }

    /// The decoded path segments: `/forms/event` is `["forms", "event"]`.
    public var pathSegments: [String] {
        switch target {
        case .literal(let route): route._withUnsafeGuaranteedRef(\.target.segments)
        case .parsed(let target, _): target.segments
        }
    }

    /// The decoded query parameters.
    public var query: QueryParameters {
        switch target {
        case .literal: QueryParameters()
        case .parsed(let target, _): target.query
        }
    }

    /// Values captured by `{name}` segments of the route that matched.
    public var parameters: RouteParameters {
        switch target {
        case .literal(let route): route._withUnsafeGuaranteedRef(\.parameters)
        case .parsed(_, let parameters): parameters
        }
    }

    /// Where the header fields are.
    enum Fields {
        /// In libmicrohttpd's table of the connection, with what the server's scan of them noted.
        case library(OpaquePointer, LibraryFieldNotes)
        /// Copied, in a `Request`.
        case copied(HTTPHeaders)
    }

    init(
        method: HTTPMethod, target: Target, remoteAddress: SocketAddress?, body: [UInt8], connection: OpaquePointer,
        notes: LibraryFieldNotes
    ) {
        self.method = method
        self.target = target
        self.remoteAddress = remoteAddress
        self.body = body
        fields = .library(connection, notes)
    }

    /// A view of an owned request: what a handler gets in tests, or when called from another handler.
    public init(_ request: Request) {
        method = request.method
        target = .parsed(RequestTarget(segments: request.pathSegments, query: request.query), request.parameters)
        remoteAddress = request.remoteAddress
        body = request.body
        fields = .copied(request.headers)
    }

    /// The request, owned: every header field copied, for work that outlives the handler's call.
    public func owned() -> Request {
        var request = Request(
            method: method, pathSegments: pathSegments, query: query, headers: headers, remoteAddress: remoteAddress,
            body: body)
        request.parameters = parameters
        return request
    }

    /// Every header field, in order: copied on each call, so a handler that reads one or two asks
    /// `header(_:)` instead.
    public var headers: HTTPHeaders {
        switch fields {
        case .library(let connection, _): LibraryFieldNotes.copy(connection)
        case .copied(let headers): headers
        }
    }

    /// The first value of the field `name`, looked up case-insensitively.
    public func header(_ name: String) -> String? {
        switch fields {
        case .library(let connection, _):
            // Through `withCString`: passed to C as it is, the name would be copied into a new array.
            let value = name.withCString { MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, $0) }
            return value.map { String(cString: $0) }
        case .copied(let headers): return headers[name]
        }
    }

    /// The first `Accept-Language` field's value: read where the server's scan of the fields found it.
    public var acceptLanguage: String? {
        switch fields {
        case .library(_, let notes): notes.acceptLanguage.map { String(cString: $0) }
        case .copied(let headers): headers["Accept-Language"]
        }
    }

    /// The value of the cookie `name` (the first pair of that name, in the first `Cookie` field that
    /// has one), as `Request.cookie(named:)` gives it.
    public func cookie(named name: String) -> String? {
        switch fields {
        case .library(let connection, let notes):
            // Most requests of a new reader have no `Cookie` field, as the server's scan found.
            guard notes.hasCookie else { return nil }
            var name = name
            return name.withUTF8 { wanted in
                var search = CookieSearch(wanted: wanted)
                withUnsafeMutablePointer(to: &search) { pointer in
                    _ = MHD_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, findCookie, pointer)
                }
                return search.found
            }
        case .copied(let headers): return Request.cookie(named: name, in: headers)
        }
    }

    /// The cookies of the `Cookie` fields (RFC 6265 §5.4); the first of a repeated name wins.
    public var cookies: [String: String] { Request.cookies(in: headers) }

    /// The media type of the content, lowercased and without parameters: `application/json`.
    public var contentType: String? {
        guard var value = header("Content-Type") else { return nil }
        return value.withUTF8(Request.mediaType(in:))
    }

    /// The decoded path, segments joined by `/`: for logs and messages, not for routing.
    public var path: String { "/" + pathSegments.joined(separator: "/") }
}

/// What the server's one pass over a request's fields noted for its handler (`RequestView`): valid
/// until the request completes, as they point into libmicrohttpd's table.
struct LibraryFieldNotes {
    /// The first `Accept-Language` field's value, which every page asks for.
    var acceptLanguage: UnsafePointer<CChar>?
    /// Whether a `Cookie` field came: a new reader's requests have none, and need no walk to find so.
    var hasCookie = false

    /// Every field of the connection's request, copied out of libmicrohttpd's table.
    static func copy(_ connection: OpaquePointer) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.reserveCapacity(16)
        withUnsafeMutablePointer(to: &headers) { pointer in
            _ = MHD_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, copyField, pointer)
        }
        return headers
    }
}

/// Appends one field to the `HTTPHeaders` passed as `cls`.
private let copyField: MHD_KeyValueIterator = { cls, _, name, value in
    guard let cls, let name else { return .YES }
    cls.assumingMemoryBound(to: HTTPHeaders.self).pointee.add(cName: name, cValue: value)
    return .YES
}

/// The state of one `RequestView.cookie(named:)` walk over the header table.
private struct CookieSearch {
    let wanted: UnsafeBufferPointer<UInt8>
    var found: String?
}

/// Looks for the cookie in each `Cookie` field, in order, until one has it.
private let findCookie: MHD_KeyValueIterator = { cls, _, name, value in
    guard let cls, let name, let value, cNameMatches(name, "cookie") else { return .YES }
    let search = cls.assumingMemoryBound(to: CookieSearch.self)
    let bytes = UnsafeBufferPointer(
        start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self), count: strlen(value))
    search.pointee.found = Request.cookie(search.pointee.wanted, in: bytes)
    return search.pointee.found == nil ? .YES : .NO
}
