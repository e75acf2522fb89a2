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
/// a suspended request's context is written only by whoever takes it out of `Server.suspended` to
/// resume it (its task, or a shutdown).
final class RequestContext {
    /// Where a request stands (docs/libmicrohttpd.md, "The access handler's calls"), with what it
    /// holds in that phase and no longer.
    enum Phase {
        /// Between requests: none has begun since the last completed.
        case idle
        /// The request line is in; the first handler call, which examines the headers, has not come.
        case started
        /// A handler call is working on the request, with the parts of its phase taken out while
        /// they change (so that a body has one owner and grows in place). Never seen by another call:
        /// each call sets the phase it ends in.
        case handling
        /// Headers accepted; body calls, then the final call, which answers.
        case reading(Reading)
        /// A task computes the answer (`Response.later`); the connection is suspended.
        case suspended
        /// The task's answer, to queue in the call that follows the connection's resumption.
        case resumed(Response)
        /// An answer was queued.
        case answered(Sent)
        /// A refusal was written to the socket itself: the connection closes without another answer.
        case closing(Sent)
        /// The client was found gone mid-body: the connection closes, and the log says who left.
        case clientLeft
    }

    /// A request whose headers were accepted, while its body arrives.
    struct Reading {
        var destination: Destination
        var upload: UploadState
        var body: [UInt8] = []
        /// What the header scan noted for the handler (`RequestView`).
        var notes: LibraryFieldNotes
        /// Whether the request is registered as receiving its body (`Server.noteReceiving`).
        var registered = false
    }

    /// What was answered: the status and the body's size, for the access log, and the template's
    /// response sent, which goes back to its pool once the request completes (`ResponseTemplate`).
    struct Sent {
        var status: Int
        var bytes: Int
        var pooled: PooledResponse?
    }

    /// What answers a request, as found from its target when its headers came.
    enum Destination {
        /// A static file the raw target named exactly. Unretained, as the router holds it (`ExactTarget`).
        case file(Unmanaged<StaticFiles.Entry>)
        /// A route the raw target named exactly (`LiteralRoute`). Unretained, as the router holds it.
        case literal(Unmanaged<LiteralRoute>)
        /// Anything else: the target parsed, to route by its path.
        case parsed(RequestTarget)
    }

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
    var phase = Phase.idle
    /// Set at the first handler call; a request libmicrohttpd ends before then is logged with `-`.
    var method = HTTPMethod.unlogged
    /// The connection's peer: read when its first request begins, and kept with the connection.
    var remoteAddress: SocketAddress?

    /// Whether a request has begun and not yet been completed (logged and reset).
    var inUse: Bool {
        if case .idle = phase { false } else { true }
    }

    /// The phase's `Reading`, moved out, and the phase left `.handling`: its body then has one owner,
    /// which grows it in place or hands it to the handler. Nil, the phase untouched, in another phase.
    func takeReading() -> Reading? {
        guard case .reading = phase else { return nil }
        // Swapped out rather than copied: a copy would count a reference to each of its parts.
        var taken = Phase.handling
        swap(&taken, &phase)
        guard case .reading(let reading) = consume taken else { return nil }
        return reading
    }

    /// What was answered, for the access log; nil when nothing was.
    var sent: Sent? {
        switch phase {
        case .answered(let sent), .closing(let sent): sent
        default: nil
        }
    }

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
        phase = .started
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

    /// Ends the request: everything it held is let go with its phase (a template's response goes
    /// back to its pool), and the context is ready for the connection's next request. The peer stays.
    func finish() {
        var pooled = sent?.pooled
        // The phase lets go of the response first, and then it is moved out of `pooled`, not copied:
        // a second reference would keep it from its pool (`recycle`).
        phase = .idle
        method = .unlogged
        if let instance = pooled.take() { PooledResponse.recycle(instance) }
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
