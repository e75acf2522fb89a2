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
        let storage = response.body.storage
        let handle = try make(
            bytes: storage.bytes, headers: response.headers, closeConnection: closeConnection,
            release: releaseStorage, owner: Unmanaged.passRetained(storage).toOpaque())
        if dated, !response.headers.contains("Date") {
            HTTPDate.withCurrent { _, date in _ = date.map { MHD_add_response_header(handle, "Date", $0) } }
        }
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
        return handle
    }

    static func destroy(_ handle: OpaquePointer) { MHD_destroy_response(handle) }
}

/// Balances the retain taken in `MHDResponse.make` once libmicrohttpd drops the response.
private let releaseStorage: MHD_ContentReaderFreeCallback = { owner in
    guard let owner else { return }
    Unmanaged<ByteStorage>.fromOpaque(owner).release()
}
