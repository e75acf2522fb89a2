/// The life of one request's upload, from headers to a complete body, as a value-type state machine.
///
/// It holds no socket and no clock: the caller passes the time in, so every limit is testable
/// without a network.
struct UploadState {
    /// Where the upload stands.
    enum Phase: Equatable {
        /// Headers accepted; body bytes may follow.
        case receiving
        /// The body passed the limit: the rest is read and dropped, then 413 is sent.
        case discarding
        /// The client is too slow or sent far too much: close the connection without answering.
        case abandoned
    }

    /// What to do when the headers are in.
    enum HeadersVerdict: Equatable {
        case accept(expectedLength: Int?)
        /// Answer at once with this status and message, then close.
        case reject(HTTPStatus, String)
    }

    let limit: Int
    let deadlineNanoseconds: UInt64
    let startNanoseconds: UInt64
    /// The body's length by its `Content-Length`; nil for a chunked body (or none).
    let expectedLength: Int?
    private(set) var phase: Phase = .receiving
    private(set) var received = 0

    /// Whether bytes its `Content-Length` announced are still to come. A chunked body never says:
    /// libmicrohttpd may hold further chunks it has read but not yet passed on.
    var isShort: Bool { expectedLength.map { received < $0 } ?? false }

    /// Past this many bytes of a refused chunked body the client is cut off rather than read to the end.
    var hardLimit: Int { max(limit * 4, limit + (1 << 20)) }

    init(limit: Int, deadlineSeconds: Int, now: UInt64, expectedLength: Int? = nil) {
        self.limit = limit
        self.expectedLength = expectedLength
        self.deadlineNanoseconds = UInt64(deadlineSeconds) * 1_000_000_000
        self.startNanoseconds = now
    }

    /// Decides from the framing headers alone, before any body byte is read (RFC 9112 §6).
    static func checkHeaders(
        method: HTTPMethod, contentLength: String?, transferEncoding: String?, limit: Int
    ) -> HeadersVerdict {
        if let transferEncoding {
            // 0.9.75 accepts both headers with TE winning, a request-smuggling risk (RFC 9112 §6.1).
            if contentLength != nil {
                return .reject(.badRequest, "a request must not carry both Transfer-Encoding and Content-Length")
            }
            // Empty elements are kept: libmicrohttpd frames by the first field's exact text, so a list
            // that reads as `chunked` here only once its empty parts are dropped (`, chunked`) would be
            // framed otherwise there, and a proxy in front could read it either way.
            let codings = transferEncoding.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingASCIIWhitespace().lowercased()
            }
            guard !codings.contains("") else {
                return .reject(.badRequest, "Transfer-Encoding holds an empty coding")
            }
            guard codings.last == "chunked" else {
                return .reject(.badRequest, "Transfer-Encoding must end with 'chunked'")
            }
            guard codings.count == 1 else {
                return .reject(.notImplemented, "only the 'chunked' transfer coding is supported")
            }
            // The library decodes chunks only for exactly `chunked` (any case): `chunked` followed by a
            // tab would be read as the body's own bytes there.
            guard transferEncoding.lowercased() == "chunked" else {
                return .reject(.badRequest, "Transfer-Encoding must be exactly 'chunked'")
            }
            if !method.allowsBody { return .reject(.badRequest, "a \(method) request must not carry a body") }
            return .accept(expectedLength: nil)
        }
        guard let contentLength else { return .accept(expectedLength: nil) }
        guard let length = byteCount(contentLength) else {
            return .reject(.badRequest, "Content-Length '\(contentLength.prefix(40))' is not a number of bytes")
        }
        if length > 0 && !method.allowsBody { return .reject(.badRequest, "a \(method) request must not carry a body") }
        if length > limit {
            return .reject(.contentTooLarge, "the request body of \(length) bytes is over the limit of \(limit) bytes")
        }
        return .accept(expectedLength: length)
    }

    /// The number a Content-Length field gives: ASCII digits between optional spaces and tabs
    /// (RFC 9110 §8.6, §5.5); nil for anything else (a sign, a second number, a number over `Int.max`).
    /// Read byte by byte: every post has one, and reading it as characters would cost more than routing.
    static func byteCount(_ field: String) -> Int? {
        var field = field
        return field.withUTF8 { bytes -> Int? in
            let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
            var start = 0
            var end = bytes.count
            while start < end, isSpace(bytes[start]) { start += 1 }
            while end > start, isSpace(bytes[end - 1]) { end -= 1 }
            guard start < end else { return nil }
            var value = 0
            for byte in bytes[start..<end] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                let (tens, overflowed) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflowedAgain) = tens.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
                guard !overflowed, !overflowedAgain else { return nil }
                value = sum
            }
            return value
        }
    }

    /// Accounts for `count` more body bytes at time `now`; returns whether to keep them.
    mutating func receive(_ count: Int, now: UInt64) -> Bool {
        received += count
        if now &- startNanoseconds > deadlineNanoseconds { phase = .abandoned }
        if phase == .abandoned { return false }
        if received > hardLimit {
            phase = .abandoned
        } else if received > limit {
            phase = .discarding
        }
        return phase == .receiving
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs.
    func trimmingASCIIWhitespaceString() -> String { self[...].trimmingASCIIWhitespace() }
}
