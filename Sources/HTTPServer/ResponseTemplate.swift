private import CMicroHTTPD
import Synchronization

/// A response sent over and over that changes in only two places per request: a slot of fixed size
/// in its body, and one optional header field. A form's page is one: its CSRF token and, for a new
/// reader, its cookie are fresh each time; its ~6 KB of markup and five header fields are not.
///
/// Building a libmicrohttpd response per request costs three allocations per header field, a mutex
/// and a copy of the whole body: more than everything else a page request does. A template keeps
/// built responses in a pool instead. A request takes one, writes its slot, sets its extra field,
/// and the response returns to the pool once the request has completed, when libmicrohttpd no
/// longer reads it (LIBMICROHTTPD.md §e: responses are reference-counted and outlive a request).
///
/// ```swift
/// let page = try ResponseTemplate(headers: ["Content-Type": "text/html"], prefix: head, slotCount: 43, suffix: tail)
/// routes.get("/page") { _ in
///     page.response(adding: ("Set-Cookie", cookie)) { slot in token.copyBytes(to: slot); return true }
///         ?? fallback()
/// }
/// ```
public final class ResponseTemplate: Sendable {
    let status: HTTPStatus
    /// The fields every response of the template has.
    let headers: HTTPHeaders
    let prefix: [UInt8]
    let slotCount: Int
    let suffix: [UInt8]
    /// Built responses no request holds. Requests in flight hold the others; a pool never grows past
    /// `idleLimit`, so a burst of concurrent requests leaves behind no more than that.
    private let idle = Mutex<[ReusableResponse]>([])
    private static let idleLimit = 64

    /// The body's size: prefix, slot and suffix.
    public var byteCount: Int { prefix.count + slotCount + suffix.count }

    /// A template whose body is `prefix`, a slot of `slotCount` bytes, and `suffix`. Fails for a
    /// header field that HTTP does not allow (CR or LF in it), as `PreparedResponse` does.
    public init(
        status: HTTPStatus = .ok, headers: HTTPHeaders, prefix: [UInt8], slotCount: Int, suffix: [UInt8]
    ) throws {
        precondition(slotCount >= 0, "a slot cannot have a negative size")
        self.status = status
        self.headers = headers
        self.prefix = prefix
        self.slotCount = slotCount
        self.suffix = suffix
        // The first response is built now: a field libmicrohttpd refuses is found at start, not per request.
        let first = try ReusableResponse(self)
        idle.withLock { $0.append(first) }
    }

    /// A response of the template whose slot `fill` writes, with `field` added when given. `fill` gets
    /// exactly `slotCount` bytes and returns false to decline (for content it cannot put there), and
    /// then, or when libmicrohttpd refuses `field`, the answer is nil: build the response another way.
    public func response(
        adding field: (name: String, value: String)? = nil, fill: (UnsafeMutableRawBufferPointer) -> Bool
    ) -> Response? {
        let taken = idle.withLock { $0.popLast() }
        guard let instance = taken ?? (try? ReusableResponse(self)) else { return nil }
        // A declined or refused instance is dropped, not pooled: its slot or field is half-written.
        guard fill(instance.slot), instance.setExtraField(name: field?.name ?? "", value: field?.value ?? "") else {
            return nil
        }
        return Response(ResponseLease(instance, of: self))
    }

    /// Takes back a response no request holds any more.
    fileprivate func recycle(_ instance: ReusableResponse) {
        idle.withLock { pool in
            if pool.count < Self.idleLimit { pool.append(instance) }
        }
    }
}

/// One built libmicrohttpd response of a template, with its own copy of the body.
///
/// `@unchecked Sendable`: it is touched by one request at a time, the one holding its lease, and
/// passes between threads only through the template's mutex.
final class ReusableResponse: @unchecked Sendable {
    let handle: OpaquePointer
    /// The bytes of the slot, inside the body libmicrohttpd sends.
    let slot: UnsafeMutableRawBufferPointer
    private let body: UnsafeMutableRawBufferPointer
    /// The extra field the response carries now; an empty name when it carries none.
    private(set) var extraName = ""
    private(set) var extraValue = ""
    /// Where libmicrohttpd keeps the extra field's value; nil when it carries none, or when a fixed
    /// field has the same name.
    private var extraValueBytes: UnsafeMutablePointer<CChar>?
    /// The template's fields, which every instance carries.
    private let fixedHeaders: HTTPHeaders

    fileprivate init(_ template: ResponseTemplate) throws(MHDResponse.Failure) {
        let count = template.byteCount
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
        fixedHeaders = template.headers
        // libmicrohttpd frees the body when its last reference to the response goes, which may be after
        // ours: the buffer outlives every send of it. (It is freed at once when this throws.)
        handle = try MHDResponse.make(
            bytes: UnsafeRawBufferPointer(rebasing: body[..<count]), headers: template.headers,
            closeConnection: false, release: freeBody, owner: body.baseAddress!)
    }

    /// The body as sent, copied: for reading a response that a handler returned (tests, fallbacks).
    func bodyCopy(count: Int) -> ResponseBody {
        ResponseBody(copying: UnsafeRawBufferPointer(rebasing: body[..<count]))
    }

    /// Replaces the extra field: removes the old one unless it is the same, adds the new one.
    /// False when libmicrohttpd refuses the new field (CR or LF in it).
    ///
    /// Name and value are passed apart, an empty name for none: an optional pair costs a copy of both
    /// strings at every step.
    fileprivate func setExtraField(name: String, value: String) -> Bool {
        if !extraName.isEmpty {
            if name == extraName {
                if value == extraValue { return true }
                if overwriteExtraValue(with: value) { return true }
            }
            _ = MHD_del_response_header(handle, extraName, extraValue)
            extraName = ""
            extraValueBytes = nil
        }
        guard !name.isEmpty else { return true }
        // A NUL would end the C string early: libmicrohttpd would send a shortened field.
        guard !name.utf8.contains(0), !value.utf8.contains(0),
            MHD_add_response_header(handle, name, value) == .YES
        else { return false }
        extraName = name
        extraValue = value
        // Only when no fixed field has the name: libmicrohttpd finds the first field of a name.
        if !fixedHeaders.contains(name) {
            extraValueBytes = MHD_get_response_header(handle, name).map { UnsafeMutablePointer(mutating: $0) }
        }
        return true
    }

    /// Writes `value` over the extra field's value where libmicrohttpd keeps it, when both have the
    /// same length. A new reader's page changes its cookie's value on every request, never its
    /// length; removing and adding the field cost five allocations and as many frees per page.
    ///
    /// libmicrohttpd keeps a field's value in its own buffer from `MHD_add_response_header` until
    /// the field is removed, and reads it only while a request sends the response; the request
    /// holding this response's lease is the only one that can send it, and has not queued it yet.
    private func overwriteExtraValue(with value: String) -> Bool {
        guard let stored = extraValueBytes else { return false }
        var value = value
        return value.withUTF8 { bytes in
            // The checks libmicrohttpd makes on a new field's value: no line breaks, no NUL.
            guard bytes.count == extraValue.utf8.count,
                !bytes.contains(where: { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") || $0 == 0 })
            else { return false }
            UnsafeMutableRawPointer(stored).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            extraValue = String(decoding: bytes, as: UTF8.self)
            return true
        }
    }

    deinit { MHDResponse.destroy(handle) }
}

/// Releases a `ReusableResponse`'s body once libmicrohttpd drops the response.
private let freeBody: @convention(c) (UnsafeMutableRawPointer?) -> Void = { body in body?.deallocate() }

/// One request's hold on a template's response. The response returns to the pool when the last
/// holder lets go: the `Response` values a handler made and, once it is queued, the request's
/// context, which is released when the request completes and libmicrohttpd reads it no more.
final class ResponseLease: Sendable {
    let instance: ReusableResponse
    let template: ResponseTemplate

    fileprivate init(_ instance: ReusableResponse, of template: ResponseTemplate) {
        self.instance = instance
        self.template = template
    }

    /// The template's fields and the extra one, as sent.
    var headers: HTTPHeaders {
        var headers = template.headers
        if !instance.extraName.isEmpty { headers.add(instance.extraName, instance.extraValue) }
        return headers
    }

    deinit { template.recycle(instance) }
}
