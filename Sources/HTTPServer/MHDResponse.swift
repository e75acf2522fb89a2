private import CMicroHTTPD

/// Builds libmicrohttpd response objects from `Response` values, without copying the body.
enum MHDResponse {
    /// Why a response could not be handed to libmicrohttpd.
    enum Failure: Error {
        /// A header name or value holds a byte HTTP forbids there (CR, LF, or a control character).
        case invalidHeader(String)
        case outOfMemory
    }

    /// A new libmicrohttpd response holding a reference to `response.body`'s storage until the library
    /// drops it. `dated` adds a `Date` field from `HTTPDate`'s per-second cache, for a response sent
    /// once; a response sent many times is left without one, and libmicrohttpd dates each sending.
    /// The caller destroys the handle after queueing (responses are reference-counted by the library).
    static func make(_ response: Response, closeConnection: Bool, dated: Bool) throws(Failure) -> OpaquePointer {
        let handle: OpaquePointer
        if case .streamed(let body) = response.source {
            handle = try make(streaming: body, headers: response.headers, closeConnection: closeConnection)
        } else {
            let storage = response.body.storage
            handle = try make(
                bytes: storage.bytes, headers: response.headers, closeConnection: closeConnection,
                release: releaseStorage, owner: Unmanaged.passRetained(storage).toOpaque())
        }
        if dated, !response.headers.contains("Date") {
            HTTPDate.withCurrent { _, date in _ = date.map { MHD_add_response_header(handle, "Date", $0) } }
        }
        return handle
    }

    /// A new libmicrohttpd response reading `body` as it sends, 64 KiB at most per call, of a size not
    /// known ahead; the body is released once the library drops the response.
    static func make(
        streaming body: StreamedBody, headers: HTTPHeaders, closeConnection: Bool
    ) throws(Failure) -> OpaquePointer {
        let owner = Unmanaged.passRetained(body).toOpaque()
        guard let handle = MHD_create_response_from_callback(UInt64.max, 1 << 16, readStream, owner, releaseStream)
        else {
            releaseStream(owner)
            throw .outOfMemory
        }
        try add(headers, to: handle, closeConnection: closeConnection)
        return handle
    }

    /// A new libmicrohttpd response sending `bytes` in place, with `headers`; `release(owner)` runs once
    /// the library drops it, even when this fails.
    static func make(
        bytes: UnsafeRawBufferPointer, headers: HTTPHeaders, closeConnection: Bool,
        release: @convention(c) (UnsafeMutableRawPointer?) -> Void, owner: UnsafeMutableRawPointer
    ) throws(Failure) -> OpaquePointer {
        guard let handle = CMicroHTTPD_responseFromOwnedBuffer(bytes.count, bytes.baseAddress, release, owner) else {
            release(owner)
            throw .outOfMemory
        }
        try add(headers, to: handle, closeConnection: closeConnection)
        return handle
    }

    /// Adds `headers` to `handle`, destroying it when one is refused.
    private static func add(_ headers: HTTPHeaders, to handle: OpaquePointer, closeConnection: Bool) throws(Failure) {
        // The fields are NUL-terminated where they are stored: libmicrohttpd reads them in place. It
        // refuses CR, LF and tabs in names and CR/LF in values: header injection.
        let refused = headers.forEachCField { name, value in
            MHD_add_response_header(handle, name, value) == .YES
        }
        if let refused {
            MHD_destroy_response(handle)
            throw .invalidHeader(refused)
        }
        if closeConnection { MHD_add_response_header(handle, "Connection", "close") }
    }

    static func destroy(_ handle: OpaquePointer) { MHD_destroy_response(handle) }
}

/// Balances the retain taken in `MHDResponse.make` once libmicrohttpd drops the response.
private let releaseStorage: MHD_ContentReaderFreeCallback = { owner in
    guard let owner else { return }
    Unmanaged<ByteStorage>.fromOpaque(owner).release()
}

/// libmicrohttpd's reader for a streamed body: the bytes `StreamedBody.read` gives, -1 at the end of
/// the stream, -2 for a failure (the connection closes without the body's end).
private let readStream: MHD_ContentReaderCallback = { owner, _, buffer, count in
    guard let owner, let buffer else { return -2 }
    let body = Unmanaged<StreamedBody>.fromOpaque(owner).takeUnretainedValue()
    switch body.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: count)) {
    case .bytes(let sent): return sent
    case .end: return -1
    case .failed: return -2
    }
}

/// Balances the retain taken in `MHDResponse.make(streaming:…)` once libmicrohttpd drops the response.
private let releaseStream: MHD_ContentReaderFreeCallback = { owner in
    guard let owner else { return }
    Unmanaged<StreamedBody>.fromOpaque(owner).release()
}
