private import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A response sent over and over that changes in only two places per request: a slot of fixed size
/// in its body, and a slot in the value of one optional header field. A form's page is one: its
/// CSRF token is fresh each time, and a new reader's cookie differs in its nonce alone; its ~6 KB of
/// markup and five header fields do not change.
///
/// Building a libmicrohttpd response per request costs three allocations per header field, a mutex
/// and a copy of the whole body: more than everything else a page request does. A template keeps
/// built responses in a pool instead. A request takes one, writes its slots, and the server gives
/// the response back to the pool once the request has completed, when libmicrohttpd no longer reads
/// it (responses are reference-counted and outlive a request: docs/libmicrohttpd.md, "Responses"), and only if
/// nothing else holds it then. A response that is never sent, or still held, is freed when its last
/// holder lets go, and the pool builds another when it runs short. Each response carries a `Date`
/// field of its own, rewritten in place when the second has changed since its last request.
///
/// ```swift
/// let cookie = FieldTemplate(name: "Set-Cookie", prefix: "id=", slotCount: 22, suffix: "; HttpOnly")
/// let page = try ResponseTemplate(
///     headers: ["Content-Type": "text/html"], prefix: head, slotCount: 43, suffix: tail, field: cookie)
/// routes.get("/page") { _ in
///     page.response(fillingField: { nonce.copyBytes(to: $0); return true }) { slot in
///         token.copyBytes(to: slot)
///         return true
///     } ?? fallback()
/// }
/// ```
public final class ResponseTemplate: Sendable {
    let status: HTTPStatus
    /// The fields every response of the template has.
    let headers: HTTPHeaders
    let prefix: [UInt8]
    let slotCount: Int
    let suffix: [UInt8]
    /// The field a response carries when its request fills it.
    let field: FieldTemplate?
    /// Built responses no request holds, apart by whether they carry the field: a request takes one of
    /// the shape it wants, so new and returning readers in turn do not add and remove the field each
    /// time. Requests in flight hold the others. Kept per thread (`Shards`): a pool shared by the
    /// workers had every page write its lock and its lists from both cores. A response returns to the
    /// pool it came from; no list grows past `idleLimit`, so a burst of concurrent requests leaves
    /// behind no more than that per thread.
    ///
    /// Each response holds these pools, to go back to them after its request: the template's
    /// `deinit` empties and closes them, or the responses waiting there would keep them, and
    /// themselves, alive for ever.
    let idle = Shards { _ in Idle() }
    fileprivate static let idleLimit = 32
    private let built = Atomic<Int>(0)

    struct Idle: ~Copyable {
        var plain: [ReusableResponse] = []
        var withField: [ReusableResponse] = []
        /// Set when the template is gone: a response that comes back then is let go.
        var closed = false

        /// One of the shape wanted, else one of the other shape (to be changed), else nil.
        mutating func take(withField wanted: Bool) -> ReusableResponse? {
            wanted ? (withField.popLast() ?? plain.popLast()) : (plain.popLast() ?? withField.popLast())
        }

        /// Keeps `instance` for a later request, unless its list is full.
        mutating func put(_ instance: ReusableResponse) {
            if closed { return }
            if instance.fieldValue == nil {
                if plain.count < ResponseTemplate.idleLimit { plain.append(instance) }
            } else if withField.count < ResponseTemplate.idleLimit {
                withField.append(instance)
            }
        }
    }

    /// The body's size: prefix, slot and suffix.
    public var byteCount: Int { prefix.count + slotCount + suffix.count }

    /// A template whose body is `prefix`, a slot of `slotCount` bytes, and `suffix`, and whose
    /// responses carry `field` when a request fills it. Fails for a header field that HTTP does not
    /// allow (CR, LF or NUL in it), as `PreparedResponse` does, and for a `field` named as one of
    /// `headers` (libmicrohttpd would find the fixed one where the slot should be).
    public init(
        status: HTTPStatus = .ok, headers: HTTPHeaders, prefix: [UInt8], slotCount: Int, suffix: [UInt8],
        field: FieldTemplate? = nil
    ) throws {
        precondition(slotCount >= 0, "a slot cannot have a negative size")
        self.status = status
        self.headers = headers
        self.prefix = prefix
        self.slotCount = slotCount
        self.suffix = suffix
        self.field = field
        if let field {
            guard !headers.contains(field.name) else {
                throw MHDResponse.Failure.invalidHeader("'\(field.name)' is a fixed field of the template too")
            }
            let forbidden: Set<UInt8> = [UInt8(ascii: "\r"), UInt8(ascii: "\n"), 0]
            guard !(Array(field.name.utf8) + field.prefix + field.suffix).contains(where: forbidden.contains) else {
                throw MHDResponse.Failure.invalidHeader("the field '\(field.name)' holds a line break or a NUL")
            }
        }
        // The first response is built now: a field libmicrohttpd refuses is found at start, not per
        // request. It keeps the field (its slot blank): the next request that wants the field writes it.
        let first = try build()
        if field != nil, first.fieldSlot() == nil {
            throw MHDResponse.Failure.invalidHeader("libmicrohttpd refuses the field '\(field?.name ?? "")'")
        }
        idle.withLock { $0.put(first) }
    }

    /// A response of the template whose body slot `fill` writes, without the template's field.
    /// `fill` gets exactly the slot's bytes and returns false to decline (for content it cannot put
    /// there); the answer is then nil: build the response another way.
    public func response(fill: (UnsafeMutableRawBufferPointer) -> Bool) -> Response? {
        response(withField: false, fillingField: { _ in true }, fill: fill)
    }

    /// A response of the template whose body slot `fill` writes and which carries the template's
    /// field, its slot written by `fillField`. Each closure gets exactly its slot's bytes and returns
    /// false to decline; then, when `fillField` writes a CR, LF or NUL, or when the template has no
    /// field, the answer is nil.
    public func response(
        fillingField fillField: (UnsafeMutableRawBufferPointer) -> Bool,
        fill: (UnsafeMutableRawBufferPointer) -> Bool
    ) -> Response? {
        guard field != nil else { return nil }
        return response(withField: true, fillingField: fillField, fill: fill)
    }

    /// Both of the above. The closures are not optional: an optional closure escapes, and its context
    /// would be allocated on every request.
    private func response(
        withField: Bool, fillingField fillField: (UnsafeMutableRawBufferPointer) -> Bool,
        fill: (UnsafeMutableRawBufferPointer) -> Bool
    ) -> Response? {
        guard let filling = take(withField: withField), fill(filling.slot) else { return nil }
        if let fieldSlot = filling.fieldSlot, !fillField(fieldSlot) { return nil }
        return filling.response()
    }

    /// A response of the template for one request to write in place, with the template's field when
    /// `withField` (nil when the template has none, or libmicrohttpd refuses it): the caller writes
    /// `slot` and `fieldSlot`, then sends `response()`. What the closures of `response(fill:)` and
    /// `response(fillingField:fill:)` do, for a caller that writes both slots from one value (a new
    /// reader's nonce and the token made from it) without a closure per slot.
    public func take(withField: Bool) -> Filling? {
        let home = ThreadNumber.currentShard
        let taken = idle.withLock(shard: home) { $0.take(withField: withField) }
        guard let instance = taken ?? (try? build()) else { return nil }
        instance.stampDate()
        guard withField else { return instance.removeField() ? Filling(instance, home: home, fieldSlot: nil) : nil }
        guard let fieldSlot = instance.fieldSlot() else { return nil }
        return Filling(instance, home: home, fieldSlot: fieldSlot)
    }

    /// A response taken from its template's pool by one request, its slots to write in place
    /// (`ResponseTemplate.take(withField:)`). One let go without `response()` is freed, not pooled:
    /// its slots may be half-written.
    public struct Filling: ~Copyable {
        private let instance: ReusableResponse
        private let home: Int
        /// The body's slot, of the template's `slotCount` bytes.
        public var slot: UnsafeMutableRawBufferPointer { instance.slot }
        /// The slot in the field's value, when the response carries the field.
        public let fieldSlot: UnsafeMutableRawBufferPointer?

        fileprivate init(_ instance: ReusableResponse, home: Int, fieldSlot: UnsafeMutableRawBufferPointer?) {
            self.instance = instance
            self.home = home
            self.fieldSlot = fieldSlot
        }

        /// The response to send, its pool the one it came from; nil when `fieldSlot` holds a byte a
        /// header field may not (CR, LF, NUL).
        public consuming func response() -> Response? {
            if let fieldSlot, !ReusableResponse.mayBeInField(fieldSlot) { return nil }
            instance.home = home
            return Response(instance)
        }
    }

    deinit {
        idle.reduce(()) { _, idle in
            idle.plain.removeAll()
            idle.withField.removeAll()
            idle.closed = true
        }
    }

    /// A new response: the template's first, or one for a thread whose pool has none left.
    private func build() throws(MHDResponse.Failure) -> ReusableResponse {
        let instance = try ReusableResponse(self)
        built.add(1, ordering: .relaxed)
        return instance
    }

    /// How many responses the template has built: for tests, which find with it whether responses
    /// come back to be reused.
    var builtCount: Int { built.load(ordering: .relaxed) }

    /// How many built responses wait in the pools of all threads, without and with the field: for tests.
    var idleCounts: (plain: Int, withField: Int) {
        idle.reduce((0, 0)) { counts, idle in (counts.0 + idle.plain.count, counts.1 + idle.withField.count) }
    }
}

/// One built libmicrohttpd response of a template, with its own copy of the body.
///
/// `@unchecked Sendable`: it is touched by one request at a time, the one that took it from its
/// pool, and passes between threads only through the lock of the pool it waits in.
final class ReusableResponse: @unchecked Sendable {
    let handle: OpaquePointer
    /// The template's status, fields and body size, copied: a request reads them from the response it
    /// holds, not from the template that every worker's requests share.
    let status: HTTPStatus
    let headers: HTTPHeaders
    let byteCount: Int
    let field: FieldTemplate?
    /// The bytes of the slot, inside the body libmicrohttpd sends.
    let slot: UnsafeMutableRawBufferPointer
    private let body: UnsafeMutableRawBufferPointer
    /// The template field's whole value where libmicrohttpd keeps it (a C string); nil while the
    /// response carries no such field.
    private(set) var fieldValue: UnsafeMutableRawBufferPointer?
    /// The template's pools, held so that a response still in flight when its template goes (a
    /// reloaded form's) finds them closed rather than freed: set once, so no request writes its count.
    private let pools: Shards<ResponseTemplate.Idle>
    /// The shard of the thread that last took it among `pools`: where it goes back (`recycle`), a
    /// number rather than a reference, which would cost a retain and a release per request.
    fileprivate var home = 0
    /// The value of the response's own `Date` field where libmicrohttpd keeps it, and the second it
    /// shows: nil when libmicrohttpd refused the field, which leaves it to make one per request.
    private var dateValue: UnsafeMutableRawBufferPointer?
    private var dateSecond = 0

    fileprivate init(_ template: ResponseTemplate) throws(MHDResponse.Failure) {
        let count = template.byteCount
        status = template.status
        headers = template.headers
        byteCount = count
        field = template.field
        pools = template.idle
        let body = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 1)
        template.prefix.withUnsafeBytes { body.copyMemory(from: $0) }
        let suffixStart = template.prefix.count + template.slotCount
        template.suffix.withUnsafeBytes {
            UnsafeMutableRawBufferPointer(rebasing: body[suffixStart..<count]).copyMemory(from: $0)
        }
        let slot = UnsafeMutableRawBufferPointer(rebasing: body[template.prefix.count..<suffixStart])
        slot.initializeMemory(as: UInt8.self, repeating: UInt8(ascii: " "))
        self.body = body
        self.slot = slot
        // libmicrohttpd frees the body when its last reference to the response goes, which may be after
        // ours: the buffer outlives every send of it. (It is freed at once when this throws.)
        handle = try MHDResponse.make(
            bytes: UnsafeRawBufferPointer(rebasing: body[..<count]), headers: template.headers,
            closeConnection: false, release: freeBody, owner: body.baseAddress!)
        dateValue = addDateField()
    }

    /// Adds a `Date` field of the current second, to be rewritten in place (`stampDate`) as the
    /// `Set-Cookie` slot is: libmicrohttpd sends a response's own `Date` rather than making one, with
    /// `gmtime_r` and glibc's time-zone lock, for every response (`HTTPDate`).
    private func addDateField() -> UnsafeMutableRawBufferPointer? {
        let now = time(nil)
        var text = [UInt8](repeating: 0, count: HTTPDate.count)
        guard text.withUnsafeMutableBytes({ HTTPDate.write(now, into: $0) }),
            let value = addWritableField("Date", text)
        else { return nil }
        dateSecond = now
        return value
    }

    /// Adds the field `name` with `value` and returns the value where libmicrohttpd keeps it, for
    /// requests to write in place: nil when libmicrohttpd refuses the field or keeps other bytes.
    private func addWritableField(_ name: String, _ value: [UInt8]) -> UnsafeMutableRawBufferPointer? {
        guard MHD_add_response_header(handle, name, String(decoding: value, as: UTF8.self)) == .YES,
            let stored = MHD_get_response_header(handle, name), strlen(stored) == value.count
        else { return nil }
        return UnsafeMutableRawBufferPointer(start: UnsafeMutableRawPointer(mutating: stored), count: value.count)
    }

    /// Brings the `Date` field to the current second, by the request that took the response and has
    /// not queued it yet: the only one that reads it (see `fieldSlot()`).
    fileprivate func stampDate() {
        guard let dateValue else { return }
        let now = time(nil)
        if now != dateSecond, HTTPDate.write(now, into: dateValue) { dateSecond = now }
    }

    /// The body as sent, copied: for reading a response that a handler returned (tests, fallbacks).
    func bodyCopy(count: Int) -> ResponseBody {
        ResponseBody(copying: UnsafeRawBufferPointer(rebasing: body[..<count]))
    }

    /// The slot in the value of the template's field, which the response then carries: nil when the
    /// template has no field or libmicrohttpd refuses it.
    ///
    /// The field is added once and then written in place, request after request (the pool keeps
    /// responses with the field apart from those without), rather than removed and added, which
    /// allocates and frees. libmicrohttpd keeps
    /// a field's value in its own buffer from `MHD_add_response_header` until the field is removed,
    /// and reads it only while a request sends the response; the request that took this response is
    /// the only one that can send it, and has not queued it yet.
    fileprivate func fieldSlot() -> UnsafeMutableRawBufferPointer? {
        guard let field, let value = fieldValue ?? addBlankField(field) else { return nil }
        return UnsafeMutableRawBufferPointer(rebasing: value[field.prefix.count..<field.prefix.count + field.slotCount])
    }

    /// Takes the field away. The value passed is libmicrohttpd's own copy, which it compares before it
    /// frees it. Should the field stay, a returning reader would be sent the last new reader's nonce:
    /// the response is then dropped, not pooled.
    fileprivate func removeField() -> Bool {
        guard let field, let value = fieldValue else { return true }
        let removed = MHD_del_response_header(
            handle, field.name, value.baseAddress!.assumingMemoryBound(to: CChar.self))
        fieldValue = nil
        return removed == .YES
    }

    /// Adds the field with its slot blank, once: later requests write the slot in place. Nil when
    /// libmicrohttpd refuses it.
    @inline(never)
    private func addBlankField(_ field: FieldTemplate) -> UnsafeMutableRawBufferPointer? {
        let blank = field.prefix + [UInt8](repeating: UInt8(ascii: " "), count: field.slotCount) + field.suffix
        fieldValue = addWritableField(field.name, blank)
        return fieldValue
    }

    /// Whether `bytes` pass the checks libmicrohttpd makes on a new field's value: no line breaks, no
    /// NUL. A new reader's cookie is checked per page: eight bytes at a time, in a word, the last eight
    /// read as one word too, overlapping the word before them.
    fileprivate static func mayBeInField(_ bytes: UnsafeMutableRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, bytes.count >= 8 else { return mayBeInFieldByBytes(bytes) }
        // Leaving at the first forbidden word keeps the loop from being vectorised into far more code.
        var offset = 0
        while offset < bytes.count &- 8 {
            if forbiddenBytes(inWord: (base + offset).loadUnaligned(as: UInt64.self)) != 0 { return false }
            offset &+= 8
        }
        return forbiddenBytes(inWord: (base + (bytes.count &- 8)).loadUnaligned(as: UInt64.self)) == 0
    }

    @inline(never)
    private static func mayBeInFieldByBytes(_ bytes: UnsafeMutableRawBufferPointer) -> Bool {
        !bytes.contains { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") || $0 == 0 }
    }

    /// Nonzero exactly when a byte of `word` is CR, LF or NUL.
    @inline(__always)
    private static func forbiddenBytes(inWord word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        return hasZeroByte(word ^ (0x0D &* ones)) | hasZeroByte(word ^ (0x0A &* ones)) | hasZeroByte(word)
    }

    /// Nonzero exactly when a byte of `word` is zero: subtracting one from each byte borrows out of
    /// a zero byte's high bit, which `~word` keeps only where the byte had it clear.
    @inline(__always)
    private static func hasZeroByte(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }

    deinit { MHDResponse.destroy(handle) }
}

/// Releases a `ReusableResponse`'s body once libmicrohttpd drops the response.
private let freeBody: @convention(c) (UnsafeMutableRawPointer?) -> Void = { body in body?.deallocate() }

extension ReusableResponse {
    /// The template's fields and the filled one, as sent.
    var sentHeaders: HTTPHeaders {
        var headers = self.headers
        if let field, let value = fieldValue { headers.add(field.name, String(decoding: value, as: UTF8.self)) }
        return headers
    }

    /// Gives `held` back to the pool it was taken from, if nothing else holds it: called by the server
    /// once the request that sent it has completed. A response that a handler's value or another
    /// request still holds is let go instead, never rewritten under them.
    ///
    /// Explicit, not a lease object's `deinit`: a lease object would be allocated and freed, and hold its
    /// pool, on every page.
    static func recycle(_ held: consuming ReusableResponse) {
        var instance = held
        guard isKnownUniquelyReferenced(&instance) else { return }
        instance.goHome()
    }

    /// Waits in the pool it was taken from.
    private func goHome() { pools.withLock(shard: home) { $0.put(self) } }
}
