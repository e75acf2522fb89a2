private import CMicroHTTPD
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// What the server does in each access-handler call of a request (docs/libmicrohttpd.md, "The access
// handler's calls"): the first call examines the headers and finds what answers, body calls feed the
// upload, the final call runs the handler. Each call moves the context's phase on.

extension Server {
    /// One access-handler call; returns false to close the connection without a response.
    func handle(
        _ context: RequestContext, connection: ConnectionHandle, method: UnsafePointer<CChar>,
        version: UnsafePointer<CChar>?, uploadData: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>
    ) -> Bool {
        switch context.phase {
        case .started:
            // Answering here closes the connection in 0.9.75, so only refusals answer now.
            context.method = HTTPMethod(cString: method)
            let http11 = version.map { strcmp($0, "HTTP/1.1") == 0 } ?? false
            return examineHeaders(context, connection, hostRequired: http11)
        case .reading:
            guard uploadSize.pointee == 0 else { return receive(context, connection, uploadData, uploadSize) }
            return answer(context, connection)
        case .suspended:
            // Not called while suspended: a resumed connection's phase is `.resumed`.
            return true
        case .resumed(let response):
            return send(response, context, connection)
        case .answered:
            // A refusal was queued while a body still arrives: it is read and dropped.
            uploadSize.pointee = 0
            return true
        case .idle, .handling, .closing, .clientLeft:
            return false
        }
    }

    /// The first call: refuses what cannot be answered, finds what answers the rest, and waits for
    /// the body, if one is declared.
    private func examineHeaders(_ context: RequestContext, _ connection: ConnectionHandle, hostRequired: Bool) -> Bool {
        guard context.targetIsClean, context.method.isToken else { return refuseRequestLine(context, connection) }
        let headerSize = CMicroHTTPD_requestHeaderSize(connection.pointer)
        guard headerSize <= configuration.maxHeaderSize else {
            return refuseHeaderSize(headerSize, context, connection)
        }
        let scan = HeaderScan(connection.pointer)
        // A `Cookie` field is in the memory twice, as sent and parsed: past the limit, even a refusal
        // worded for the client may find no room, and libmicrohttpd would close without a word.
        if scan.cookieCost > 0, headerSize + scan.cookieCost > configuration.maxHeaderSize {
            return refuseHeaderSize(headerSize + scan.cookieCost, context, connection)
        }
        let destination: RequestContext.Destination
        if let (found, text) = router.exact(for: context.method, rawTarget: context.rawTargetBytes) {
            context.name(target: text)
            switch found {
            case .file(let entry): destination = .file(entry)
            case .route(let route): destination = .literal(route)
            }
        } else {
            do {
                destination = .parsed(try RequestTarget.parse(context.rawTarget))
            } catch {
                return send(refusal(.badRequest, error.description, connection), context, connection, close: true)
            }
        }
        let framing = scan.framing
        // HTTP/1.1 requires exactly one Host (RFC 9112 §3.2); HTTP/1.0 may leave it out.
        if scan.badName != nil || scan.hosts > 1 || (hostRequired && scan.hosts == 0) || framing.contentLengths > 1 {
            let hosts = hostRequired || scan.hosts > 1 ? scan.hosts : 1
            let message =
                HeaderScan.problem(badName: scan.badName, hosts: hosts) ?? "a request must carry one Content-Length"
            return send(refusal(.badRequest, message, connection), context, connection, close: true)
        }
        guard framing.transferEncoding == nil, framing.contentLength == nil else {
            return examineBody(
                framing.contentLength, framing.transferEncoding, destination, scan.notes, context, connection)
        }
        // No body: what `UploadState.checkHeaders` accepts at once.
        let upload = UploadState(
            limit: configuration.maxBodySize, deadlineSeconds: configuration.bodyDeadline, now: context.startNanoseconds
        )
        context.phase = .reading(.init(destination: destination, upload: upload, notes: scan.notes))
        return true
    }

    /// The first call of a request that declares a body: refused before it is read, or accepted with
    /// room for it.
    private func examineBody(
        _ contentLength: String?, _ transferEncoding: String?, _ destination: RequestContext.Destination,
        _ notes: LibraryFieldNotes, _ context: RequestContext, _ connection: ConnectionHandle
    ) -> Bool {
        if case .parsed(let target) = destination, transferEncoding != nil || contentLength ?? "0" != "0" {
            // A body for a path that is not there, or not for this method, is refused before it is read
            // and before `100 Continue` asks for it (RFC 9110 §10.1.1): the client learns what is wrong,
            // not the body's size.
            let resolution = router.resolve(context.method, target.segments)
            switch resolution {
            case .notFound, .methodNotAllowed:
                return send(
                    unrouted(resolution, target.segments, context, connection), context, connection, close: true)
            case .missing(let handler, let parameters):
                let response = missing(handler, target, parameters, notes, context, connection)
                return send(response, context, connection, close: true)
            case .found, .options: break
            }
        }
        let verdict = UploadState.checkHeaders(
            method: context.method, contentLength: contentLength, transferEncoding: transferEncoding,
            limit: configuration.maxBodySize)
        switch verdict {
        case .reject(let status, let message):
            return send(refusal(status, message, connection), context, connection, close: true)
        case .accept(let expectedLength):
            let upload = UploadState(
                limit: configuration.maxBodySize, deadlineSeconds: configuration.bodyDeadline,
                now: context.startNanoseconds, expectedLength: expectedLength)
            var reading = RequestContext.Reading(destination: destination, upload: upload, notes: notes)
            // Room for a declared length is made up front only up to `bodyReservation`: a client may
            // declare gigabytes and send nothing, and an allocation that size fails the whole process.
            // A larger body grows as it arrives.
            if let expectedLength, expectedLength > 0 {
                reading.body.reserveCapacity(min(expectedLength, Self.bodyReservation))
            }
            if expectedLength ?? 1 > 0 {
                noteReceiving(context, connection)
                reading.registered = true
            }
            context.phase = .reading(reading)
            return true
        }
    }

    /// The most a request's declared `Content-Length` reserves before its bytes arrive.
    static let bodyReservation = 1 << 20

    /// A body call: keeps the bytes while they are within the limit.
    private func receive(
        _ context: RequestContext, _ connection: ConnectionHandle, _ data: UnsafePointer<CChar>?,
        _ size: UnsafeMutablePointer<Int>
    ) -> Bool {
        let count = size.pointee
        size.pointee = 0
        guard var reading = context.takeReading() else { return false }
        let keep = reading.upload.receive(count, now: monotonicNanoseconds())
        if keep, let data {
            reading.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: count))
        } else if reading.upload.phase == .discarding, !reading.body.isEmpty {
            reading.body = []  // over the limit: keep nothing of it
        }
        let abandoned = reading.upload.phase == .abandoned
        // libmicrohttpd 0.9.75 takes a short read as the end of what the socket has, so under
        // edge-triggered epoll it misses a close that came with these bytes, and would hold the
        // connection until the idle timeout. While the body is short, look for that close here.
        if !abandoned, reading.upload.isShort, Self.clientHasClosed(connection) {
            if reading.registered { _ = endReceiving(context) }
            context.phase = .clientLeft
            return false
        }
        context.phase = .reading(reading)
        return !abandoned
    }

    /// Whether the client has closed its side, or reset the connection, with nothing left unread.
    /// A peek does not wait and takes nothing: on an open, empty socket it fails with `EAGAIN`.
    private static func clientHasClosed(_ connection: ConnectionHandle) -> Bool {
        let socket = CMicroHTTPD_socket(connection.pointer)
        guard socket >= 0 else { return false }
        var byte: UInt8 = 0
        let read = recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return read == 0 || (read < 0 && errno == ECONNRESET)
    }

    /// The final call: the body is in, and what the headers found answers.
    private func answer(_ context: RequestContext, _ connection: ConnectionHandle) -> Bool {
        guard var reading = context.takeReading() else { return false }
        if reading.registered {
            reading.registered = false
            // A shutdown past its grace period may have answered it already, while its body arrived.
            guard endReceiving(context) else {
                context.phase = .reading(reading)
                return false
            }
        }
        if reading.upload.phase == .discarding {
            let message = "the request body is over the limit of \(configuration.maxBodySize) bytes"
            return send(refusal(.contentTooLarge, message, connection), context, connection, close: true)
        }
        switch reading.destination {
        case .file(let file):
            let condition = MHD_lookup_connection_value(connection.pointer, MHD_ValueKind.HEADER_KIND, "If-None-Match")
            let response = file._withUnsafeGuaranteedRef {
                $0.response(ifNoneMatch: condition.map { String(cString: $0) })
            }
            return send(response, context, connection)
        case .literal(let literal):
            let handler = literal._withUnsafeGuaranteedRef(\.handler)
            return run(handler, .literal(literal), reading.body, reading.notes, context, connection)
        case .parsed(let target):
            let resolution = router.resolve(context.method, target.segments)
            switch resolution {
            case .notFound, .methodNotAllowed:
                return send(unrouted(resolution, target.segments, context, connection), context, connection)
            case .options(let allow):
                return send(Router.options(allow), context, connection)
            case .found(let handler, let parameters), .missing(let handler, let parameters):
                return run(handler, .parsed(target, parameters), reading.body, reading.notes, context, connection)
            }
        }
    }

    /// Runs a route's handler on a view of the request; an answer `later` suspends the connection.
    private func run(
        _ handler: Handler, _ target: RequestView.Target, _ body: [UInt8], _ notes: LibraryFieldNotes,
        _ context: RequestContext, _ connection: ConnectionHandle
    ) -> Bool {
        let response = handler(
            RequestView(
                method: context.method, target: target, remoteAddress: context.remoteAddress, body: body,
                connection: connection.pointer, notes: notes))
        if case .later(let work) = response.source {
            suspend(context, connection, running: work)
            return true
        }
        return send(response, context, connection)
    }

    /// Queues `response`; the phase records what was sent, for the access log.
    func send(
        _ response: Response, _ context: RequestContext, _ connection: ConnectionHandle, close: Bool = false
    ) -> Bool {
        let (status, count) = response.sentStatusAndCount
        let closing = close || draining.load(ordering: .relaxed)
        switch response.source {
        case .prepared(let prepared) where !closing:
            context.phase = .answered(.init(status: status, bytes: count))
            return queue(prepared.handle, status: status, context, connection)
        case .pooled(let instance) where !closing:
            // Held until the request completes: only then may another request change the response.
            context.phase = .answered(.init(status: status, bytes: count, pooled: instance))
            return queue(instance.handle, status: status, context, connection)
        case .built, .later, .streamed, .prepared, .pooled:
            context.phase = .answered(.init(status: status, bytes: count))
            return sendBuilt(response, context, connection, closing: closing)
        }
    }

    /// Queues a response built for this request alone, or one that must close the connection.
    private func sendBuilt(
        _ response: Response, _ context: RequestContext, _ connection: ConnectionHandle, closing: Bool
    ) -> Bool {
        if case .later = response.source {
            // `later` is run where a handler's answer is taken; anywhere else it is a bug on our side.
            logger.error("a deferred response reached send", metadata: ["path": "\(Self.path(of: context.rawTarget))"])
            return send(.error(.internalServerError, "the server could not answer"), context, connection, close: true)
        }
        do {
            let handle = try MHDResponse.make(response, closeConnection: closing, dated: true)
            defer { MHDResponse.destroy(handle) }
            return queue(handle, status: response.status.code, context, connection)
        } catch {
            // A handler put CR/LF in a header: a bug on our side, never sent on (header injection).
            logger.error(
                "response refused", metadata: ["reason": "\(error)", "path": "\(Self.path(of: context.rawTarget))"])
            let fallback = Response.error(.internalServerError, "the server built an invalid response")
            context.phase = .answered(.init(status: fallback.status.code, bytes: fallback.body.count))
            guard let handle = try? MHDResponse.make(fallback, closeConnection: true, dated: true) else { return false }
            defer { MHDResponse.destroy(handle) }
            return queue(handle, status: fallback.status.code, context, connection)
        }
    }

    /// Hands a response to libmicrohttpd: every answer passes here, and a refusal is logged, and
    /// closes the connection, rather than leaving the client waiting.
    private func queue(
        _ handle: OpaquePointer, status: Int, _ context: RequestContext, _ connection: ConnectionHandle
    ) -> Bool {
        guard MHD_queue_response(connection.pointer, UInt32(status), handle) == .YES else {
            logger.error(
                "libmicrohttpd refused to queue a response",
                metadata: ["status": "\(status)", "target": "\(context.rawTarget)"])
            return false
        }
        return true
    }

    /// Called from `endRequest`, once per request; `termination` is nil for a request libmicrohttpd
    /// ended before any handler call (`completeUnhandled`).
    func complete(_ context: RequestContext, termination: UInt32?) {
        defer { context.finish() }
        if case .reading(let reading) = context.phase, reading.registered { _ = endReceiving(context) }
        inFlight.add(-1)
        // Called in place, not copied out first: a copy of the closure costs a retain and a release.
        guard configuration.accessLog != nil else { return }
        var clientLeft = false
        if case .clientLeft = context.phase { clientLeft = true }
        let completed = MHD_RequestTerminationCode.REQUEST_TERMINATED_COMPLETED_OK.rawValue
        let reason = termination == completed && !clientLeft ? nil : Self.abortReason(clientLeft, termination)
        let sent = context.sent
        configuration.accessLog?(
            AccessRecord(
                method: context.method.rawValue, target: context.rawTarget, status: sent?.status,
                bytes: sent?.bytes ?? 0, nanoseconds: monotonicNanoseconds() &- context.startNanoseconds,
                remoteAddress: context.remoteAddress, abortReason: reason))
    }

    /// Why a request did not complete as it should, for its log line.
    private static func abortReason(_ clientLeft: Bool, _ termination: UInt32?) -> String? {
        // A client found gone mid-body was closed on by the handler, which the library reports as an error.
        clientLeft
            ? terminationReason(MHD_RequestTerminationCode.REQUEST_TERMINATED_CLIENT_ABORT.rawValue)
            : termination.map(terminationReason) ?? "ended by libmicrohttpd before any handler call"
    }

    /// Called from the connection's end (or its next request) for a request that libmicrohttpd ended
    /// before any handler call without a completion (its memory for the headers ran out; its log line
    /// says so). Logged with the method unknown (`-`).
    func completeUnhandled(_ context: RequestContext) {
        complete(context, termination: nil)
    }
}

extension Server {
    /// `target` without its query, for a log line: a query may carry what a log must not keep (an
    /// application's signed links).
    static func path(of target: String) -> Substring {
        target.utf8.firstIndex(of: UInt8(ascii: "?")).map { target[..<$0] } ?? target[...]
    }
}
