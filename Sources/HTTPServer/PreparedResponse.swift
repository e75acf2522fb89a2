/// A response built once and sent many times: static files, fixed pages.
///
/// libmicrohttpd responses are reference-counted and reusable across connections and threads,
/// so the library object is made once here and only queued per request (docs/libmicrohttpd.md, "Responses").
///
/// ```swift
/// let page = try PreparedResponse(Response(contentType: "text/html", body: html))
/// routes.get("/") { _ in Response(page) }
/// ```
public final class PreparedResponse: @unchecked Sendable {
    // @unchecked: `handle` is immutable after init, and libmicrohttpd guards a response's
    // reference count with its own mutex, so queueing it from several workers is safe.
    let response: Response
    let handle: OpaquePointer
    /// The body's size, kept apart so the access log reads it without touching the shared body.
    let byteCount: Int

    /// Prepares `response`; fails only for a header that HTTP does not allow.
    public init(_ response: Response) throws {
        self.response = response
        byteCount = response.body.count
        handle = try MHDResponse.make(response, closeConnection: false, dated: false)
    }

    deinit { MHDResponse.destroy(handle) }
}
