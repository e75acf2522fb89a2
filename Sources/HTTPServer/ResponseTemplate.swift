private import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A response sent over and over that differs per request only in one run of its body (a form
/// page's CSRF token), and maybe in one more header field (a new reader's cookie).
///
/// Building a libmicrohttpd response per request costs three allocations per header field and a
/// copy of the whole body: more than the rest of a page request. A template keeps built responses
/// in a pool per thread instead. A request takes one, writes its run into the body, a buffer the
/// server owns, and adds its extra field through libmicrohttpd's API. Once the request has
/// completed, libmicrohttpd reads the response no more, and the server takes the field away and
/// gives the response back to its pool (docs/libmicrohttpd.md, "Responses").
///
/// ```swift
/// let page = try ResponseTemplate(headers: ["Content-Type": "text/html"], prefix: head, slotCount: 43, suffix: tail)
/// routes.get("/page") { _ in
///     page.response(filling: token, adding: ("Set-Cookie", cookie)) ?? fallback()
/// }
/// ```
public final class ResponseTemplate: Sendable {
    let status: HTTPStatus
    /// The fields every response of the template has.
    let headers: HTTPHeaders
    let prefix: [UInt8]
    let slotCount: Int
    let suffix: [UInt8]
    /// Built responses no request holds, per thread (`Shards`): a pool shared by the workers would
    /// have every page write its lock from both cores. No list grows past `idleLimit`.
    let idle = Shards { _ in Idle() }
    static let idleLimit = 32
    private let built = Atomic<Int>(0)

    struct Idle: ~Copyable {
        var responses: [PooledResponse] = []
        /// Set when the template is gone: a response that comes back then is let go.
        var closed = false
    }

    /// A template whose body is `prefix`, a run of `slotCount` bytes each request fills, and
    /// `suffix`. Fails for a header field that HTTP does not allow, as `PreparedResponse` does.
    public init(
        status: HTTPStatus = .ok, headers: HTTPHeaders, prefix: [UInt8], slotCount: Int, suffix: [UInt8]
    ) throws {
        precondition(slotCount >= 0, "a slot cannot have a negative size")
        self.status = status
        self.headers = headers
        self.prefix = prefix
        self.slotCount = slotCount
        self.suffix = suffix
        // The first response is built now: a field libmicrohttpd refuses is found at start.
        let first = try build()
        idle.withLock { $0.responses.append(first) }
    }

    deinit {
        idle.reduce(()) { _, idle in
            idle.responses.removeAll()
            idle.closed = true
        }
    }

    /// The body's size.
    public var byteCount: Int { prefix.count + slotCount + suffix.count }

    /// A response of the template with `slot` between its prefix and suffix, and with `field` when
    /// one is given. Nil when `slot` is not `slotCount` bytes, or libmicrohttpd refuses `field` (a
    /// CR, LF or NUL in it): build the response another way.
    public func response(filling slot: String, adding field: (name: String, value: String)? = nil) -> Response? {
        var slot = slot
        guard slot.utf8.count == slotCount else { return nil }
        let home = ThreadNumber.currentShard
        let taken = idle.withLock(shard: home) { $0.responses.popLast() }
        guard let instance = taken ?? (try? build()) else { return nil }
        instance.home = home
        instance.stampDate()
        slot.withUTF8 { instance.slot.copyMemory(from: UnsafeRawBufferPointer($0)) }
        if let field, !instance.add(field) { return nil }
        return Response(instance)
    }

    private func build() throws(MHDResponse.Failure) -> PooledResponse {
        let instance = try PooledResponse(self)
        built.add(1, ordering: .relaxed)
        return instance
    }

    /// How many responses the template has built: for tests, which find with it whether responses
    /// come back to be reused.
    var builtCount: Int { built.load(ordering: .relaxed) }

    /// How many built responses wait in the pools of all threads: for tests.
    var idleCount: Int { idle.reduce(0) { $0 + $1.responses.count } }
}

/// One built libmicrohttpd response of a template, with a body of its own.
///
/// `@unchecked Sendable`: it is touched by one request at a time, the one that took it from its
/// pool, and passes between threads only through the lock of the pool it waits in.
final class PooledResponse: @unchecked Sendable {
    let handle: OpaquePointer
    /// The template's status, fields and body size, copied: a request reads them from the response it
    /// holds, not from the template that every worker's requests share.
    let status: HTTPStatus
    let headers: HTTPHeaders
    let byteCount: Int
    /// The run of the body a request fills, inside the body libmicrohttpd sends.
    let slot: UnsafeMutableRawBufferPointer
    private let body: UnsafeMutableRawBufferPointer
    /// The template's pools, held so that a response still in flight when its template goes (a
    /// reloaded form's) finds them closed rather than freed.
    private let pools: Shards<ResponseTemplate.Idle>
    /// The shard of the thread that took it: where it goes back.
    fileprivate var home = 0
    /// The field the request that holds it added, taken away before the response is pooled again.
    private(set) var field: (name: String, value: String)?
    /// The `Date` field's value now, and the second it shows (-1 before the first).
    private var date = [CChar](repeating: 0, count: HTTPDate.count + 1)
    private var dateSecond = -1

    fileprivate init(_ template: ResponseTemplate) throws(MHDResponse.Failure) {
        let count = template.byteCount
        status = template.status
        headers = template.headers
        byteCount = count
        pools = template.idle
        let body = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 1)
        template.prefix.withUnsafeBytes { body.copyMemory(from: $0) }
        let suffixStart = template.prefix.count + template.slotCount
        template.suffix.withUnsafeBytes {
            UnsafeMutableRawBufferPointer(rebasing: body[suffixStart..<count]).copyMemory(from: $0)
        }
        slot = UnsafeMutableRawBufferPointer(rebasing: body[template.prefix.count..<suffixStart])
        slot.initializeMemory(as: UInt8.self, repeating: UInt8(ascii: " "))
        self.body = body
        // libmicrohttpd frees the body when its last reference to the response goes, which may be after
        // ours: the buffer outlives every send of it. (It is freed at once when this throws.)
        handle = try MHDResponse.make(
            bytes: UnsafeRawBufferPointer(rebasing: body[..<count]), headers: template.headers,
            closeConnection: false, release: freeBody, owner: body.baseAddress!)
    }

    deinit { MHDResponse.destroy(handle) }

    /// Brings the `Date` field to the current second, through libmicrohttpd's API: a response sent
    /// many times has no date of its own unless it is replaced when the second changes.
    fileprivate func stampDate() {
        // Most requests come in the second the one before did: nothing to ask the cache.
        guard time(nil) != dateSecond else { return }
        HTTPDate.withCurrent { second, text in
            guard second != dateSecond, let text else { return }
            if dateSecond >= 0 { _ = MHD_del_response_header(handle, "Date", date) }
            dateSecond = MHD_add_response_header(handle, "Date", text) == .YES ? second : -1
            date.withUnsafeMutableBufferPointer { _ = strcpy($0.baseAddress!, text) }
        }
    }

    /// Adds `field` for the request that took the response; false when libmicrohttpd refuses it.
    fileprivate func add(_ field: (name: String, value: String)) -> Bool {
        // Through `withCString`: a string in a tuple passed to C as it is would be copied into an array.
        let added = field.name.withCString { name in
            field.value.withCString { MHD_add_response_header(handle, name, $0) }
        }
        guard added == .YES else { return false }
        self.field = field
        return true
    }

    /// The template's fields and the added one, as sent.
    var sentHeaders: HTTPHeaders {
        var headers = self.headers
        if let field { headers.add(field.name, field.value) }
        return headers
    }

    /// The body as sent, copied: for reading a response that a handler returned (tests, fallbacks).
    var bodyCopy: ResponseBody { ResponseBody(copying: UnsafeRawBufferPointer(rebasing: body[..<byteCount])) }

    /// Gives `held` back to the pool it was taken from, if nothing else holds it: called by the server
    /// once the request that sent it has completed. A response that a handler's value or another
    /// request still holds is let go instead, never changed under them.
    static func recycle(_ held: consuming PooledResponse) {
        var instance = held
        guard isKnownUniquelyReferenced(&instance) else { return }
        instance.goHome()
    }

    /// Takes the added field away and waits in the pool it was taken from; a field libmicrohttpd does
    /// not take away leaves the response to be let go.
    private func goHome() {
        if let field {
            let removed = field.name.withCString { name in
                field.value.withCString { MHD_del_response_header(handle, name, $0) }
            }
            guard removed == .YES else { return }
            self.field = nil
        }
        pools.withLock(shard: home) { idle in
            if !idle.closed, idle.responses.count < ResponseTemplate.idleLimit { idle.responses.append(self) }
        }
    }
}

/// Releases a `PooledResponse`'s body once libmicrohttpd drops the response.
private let freeBody: @convention(c) (UnsafeMutableRawPointer?) -> Void = { body in body?.deallocate() }
