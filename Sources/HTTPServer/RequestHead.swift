private import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a light handler reads of a request (`RouterBuilder.get(_:light:_:)`): its method and the
/// header fields it asks for, read where libmicrohttpd keeps them.
///
/// A `Request` copies every field out of libmicrohttpd's table and releases them all when it ends:
/// on the busiest pages that is more work than the handler's own. A light handler asks for the two
/// or three fields it needs, and answers as its full handler would for the same request.
///
/// Valid only during the handler's call: it reads the connection's memory in place.
public struct RequestHead: ~Copyable {
    /// The method token (`HEAD` for a HEAD, which a GET route answers).
    public let method: HTTPMethod
    private let connection: OpaquePointer
    /// What the server's scan of every request's fields noted (`RequestContext`).
    private let acceptLanguageValue: UnsafePointer<CChar>?
    private let hasCookie: Bool

    init(method: HTTPMethod, connection: OpaquePointer, acceptLanguage: UnsafePointer<CChar>?, hasCookie: Bool) {
        self.method = method
        self.connection = connection
        self.acceptLanguageValue = acceptLanguage
        self.hasCookie = hasCookie
    }

    /// The first `Accept-Language` field's value, as `header("Accept-Language")` gives it: read where
    /// the server's scan of the fields found it, with no lookup.
    public var acceptLanguage: String? { acceptLanguageValue.map { String(cString: $0) } }

    /// The first value of the field `name`, looked up case-insensitively: what `Request.headers[name]`
    /// gives for the same request.
    public func header(_ name: String) -> String? {
        // Through `withCString`: passed to C as it is, the name would be copied into a new array (a
        // `malloc` and a `free`) on every call, which is every page request's `Accept-Language`.
        let value = name.withCString { MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, $0) }
        guard let value else { return nil }
        return String(cString: value)
    }

    /// The value of the cookie `name`: what `Request.cookie(named:)` gives for the same request (the
    /// first pair of that name, in the first `Cookie` field that has one).
    public func cookie(named name: String) -> String? {
        // Most requests of a new reader have no `Cookie` field, as the server's scan found.
        guard hasCookie else { return nil }
        // The name is read in place, not copied into an array: a returning reader's every page asks.
        var name = name
        return name.withUTF8 { wanted in
            var search = CookieSearch(wanted: wanted)
            withUnsafeMutablePointer(to: &search) { pointer in
                _ = MHD_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, findCookie, pointer)
            }
            return search.found
        }
    }
}

/// The state of one `RequestHead.cookie(named:)` walk over the header table.
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
