#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The state of a connection's request under way: made when the connection opens, reset for each
/// request it carries, released when it closes.
///
/// One per connection, not per request: a keep-alive connection carries many requests one after
/// the other (libmicrohttpd begins the next only once the last has completed), and making and
/// freeing a context for each would cost an allocation and a release of every field per request.
///
/// Not `Sendable`: libmicrohttpd calls back for one connection on one worker thread at a time, and
/// a suspended request's context is touched only by the task that will resume it.
final class RequestContext {
    /// Where the handler protocol stands for this request (docs/libmicrohttpd.md, "The access handler's calls").
    enum Phase {
        /// The first handler call has not happened: headers are not yet examined.
        case new
        /// Headers accepted; body calls, then the final call.
        case reading
        /// An async handler runs while the connection is suspended.
        case suspended
        /// A response was queued.
        case answered
        /// A refusal was written to the socket before libmicrohttpd could answer: the connection closes.
        case closing
    }

    /// Whether a request has begun and not yet been completed (logged and reset).
    private(set) var inUse = false
    /// The request target exactly as it arrived, before any decoding: its bytes, copied when the
    /// request begins (libmicrohttpd's copy may be gone when a request is completed late), in memory
    /// the connection keeps for all its requests.
    private(set) var rawTargetBytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    private var targetStorage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 128)
    /// `rawTarget`, once a string is made of it or the router has named it (`name(target:)`).
    private var targetText: String?
    /// Whether the target can be routed as sent: no control, space, DEL or `#` (a fragment is never
    /// sent, RFC 9112 §3.2), and non-ASCII bytes only as valid UTF-8. Browsers percent-encode all of
    /// these, but curl sends `?q=café` as it is, which is accepted; invalid UTF-8 would reach routing
    /// repaired into U+FFFD, something other than what was sent, so it is refused with the rest.
    private(set) var targetIsClean = true
    /// How many query arguments libmicrohttpd will make of the target: one per `&`-separated part of
    /// what follows the `?`, empty parts included (one more than it makes when the query ends in `&`).
    private(set) var queryArguments = 0
    private(set) var startNanoseconds: UInt64 = 0
    var phase: Phase = .new
    /// Set at the first handler call; a request libmicrohttpd ends before then is logged with `-`.
    var method = HTTPMethod.unlogged
    var headers = HTTPHeaders()
    var target = RequestTarget(segments: [], query: QueryParameters())
    /// The static file the raw target named, when the router found it without parsing the target.
    /// Unretained, as the router holds it (`ExactTarget`).
    var file: Unmanaged<StaticFiles.Entry>?
    /// The literal route the raw target named, when the router found it without parsing the target.
    /// Unretained, as the router holds it (`ExactTarget`).
    var literal: Unmanaged<LiteralRoute>?
    /// The connection's peer: read when its first request begins, and kept with the connection.
    var remoteAddress: SocketAddress?
    var upload: UploadState?
    var body: [UInt8] = []
    /// Whether `body` may hold anything: bytes, or room reserved for them. Read where a request
    /// without a body would otherwise read `body`, whose every access is checked for exclusivity at
    /// run time (it grows through calls as bytes arrive): two such checks a page request, each a call
    /// into the runtime and its thread-local storage.
    var bodyHeld = false
    /// Set by an async handler's task just before it resumes the connection.
    var pendingResponse: Response?
    /// What was sent, for the access log.
    var sentStatus: Int?
    var sentBytes = 0
    /// The template response sent, held until the request completes and then given back to its pool
    /// (`ResponseTemplate`).
    var reusable: ReusableResponse?
    /// Set when the server found the client gone mid-body and closed the connection itself, which
    /// libmicrohttpd then reports as an error: the access log says who left.
    var clientLeft = false
    /// Whether the request is registered as receiving its body (`Server.noteReceiving`).
    var receiving = false
    /// The first `Accept-Language` field's value where libmicrohttpd keeps it, and whether a `Cookie`
    /// field came, as the header scan noted them for a light handler (`RequestHead`); valid until the
    /// request completes.
    var acceptLanguage: UnsafePointer<CChar>?
    var hasCookie = false

    /// A connection's context, before its first request.
    init() {}

    deinit { targetStorage.deallocate() }

    /// The request target exactly as it arrived, as a string: made from its bytes when first asked for,
    /// unless the router found it (`name(target:)`). A page's or a file's target is found by its bytes,
    /// and logged with the router's own string: no string is decoded for it.
    var rawTarget: String {
        if let targetText { return targetText }
        let text = String(decoding: rawTargetBytes, as: UTF8.self)
        targetText = text
        return text
    }

    /// Gives `rawTarget` as `text`, which must be the same text as its bytes (a router's key for them).
    func name(target text: String) { targetText = text }

    /// Starts a request whose target is the C string `target` (libmicrohttpd's, empty when nil). The
    /// last request must have been completed (`finish()`).
    func begin(rawTarget target: UnsafePointer<CChar>?, now: UInt64) {
        inUse = true
        startNanoseconds = now
        guard let target else {
            rawTargetBytes = UnsafeBufferPointer(start: nil, count: 0)
            targetText = ""
            targetIsClean = true
            queryArguments = 0
            return
        }
        targetText = nil
        let count = strlen(target)
        if count > targetStorage.count { growTargetStorage(to: count) }
        targetStorage.baseAddress!.initialize(
            from: UnsafeRawPointer(target).assumingMemoryBound(to: UInt8.self), count: count)
        let bytes = UnsafeBufferPointer(rebasing: targetStorage[..<count])
        rawTargetBytes = bytes
        var ascii = true
        var clean = true
        var query = false
        var ampersands = 0
        for byte in bytes {
            if byte >= 0x80 {
                ascii = false
            } else if byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: "#") {
                clean = false
            } else if byte == UInt8(ascii: "?") {
                query = true
            } else if byte == UInt8(ascii: "&"), query {
                ampersands += 1
            }
        }
        queryArguments = query ? ampersands + 1 : 0
        // Validated only when a non-ASCII byte came (rarely): most targets are plain ASCII.
        targetIsClean = clean && (ascii || String(validating: bytes, as: UTF8.self) != nil)
    }

    /// Room for a target of `count` bytes: a long one keeps it for the connection's later requests
    /// (libmicrohttpd's memory limit bounds it).
    @inline(never)
    private func growTargetStorage(to count: Int) {
        targetStorage.deallocate()
        targetStorage = .allocate(capacity: max(count, 2 * targetStorage.count))
    }

    /// Ends the request: everything it held is let go (a template response goes back to its pool),
    /// and the context is ready for the connection's next request. The peer stays.
    func finish() {
        inUse = false
        phase = .new
        method = .unlogged
        // Only what a request left behind is cleared: a routed request's fields have moved on into its
        // `Request`, and writing an empty value over an empty one still costs a retain and a release.
        // A page or a static file leaves none of them: their clearing is out of line.
        if !headers.isEmpty || !target.segments.isEmpty || !target.query.isEmpty || bodyHeld || pendingResponse != nil {
            clearRequestParts()
        }
        if file != nil { file = nil }
        if literal != nil { literal = nil }
        // Taken out by a plain load and store: passed `inout`, the property would cost a dynamic
        // exclusivity check per request.
        if let instance = reusable.take() { ReusableResponse.recycle(instance) }
        upload = nil
        sentStatus = nil
        sentBytes = 0
        clientLeft = false
        receiving = false
        acceptLanguage = nil
        hasCookie = false
    }
}

extension RequestContext {
    /// Lets go of what a request with a `Request`, a body or a deferred answer left behind.
    @inline(never)
    fileprivate func clearRequestParts() {
        if !headers.isEmpty { headers = HTTPHeaders() }
        if !target.segments.isEmpty { target.segments = [] }
        if !target.query.isEmpty { target.query = QueryParameters() }
        // Room reserved for a body that never came is let go too.
        if bodyHeld {
            body = []
            bodyHeld = false
        }
        if pendingResponse != nil { pendingResponse = nil }
    }
}

extension HTTPMethod {
    /// What the access log shows for a request that ended before its method was read.
    fileprivate static var unlogged: HTTPMethod { HTTPMethod(rawValue: "-") }
}

/// Nanoseconds on a clock that never jumps; cheap enough to read per request (vDSO).
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}
