/// A complete HTTP request as a handler sees it: the body is fully read and within the limit.
public struct Request: Sendable {
    /// The method token.
    public let method: HTTPMethod
    /// The decoded path segments: `/forms/event` is `["forms", "event"]`.
    public let pathSegments: [String]
    /// The decoded query parameters.
    public let query: QueryParameters
    /// The request header fields, looked up case-insensitively.
    public let headers: HTTPHeaders
    /// The peer's address, when the socket has one.
    public let remoteAddress: SocketAddress?
    /// The request content, at most `ServerConfiguration.maxBodySize` bytes.
    public let body: [UInt8]
    /// Values captured by `{name}` segments of the route that matched.
    public internal(set) var parameters = RouteParameters()

    /// Builds a request; the server does this for every request it routes, tests may too.
    public init(
        method: HTTPMethod, pathSegments: [String], query: QueryParameters = QueryParameters(),
        headers: HTTPHeaders = HTTPHeaders(), remoteAddress: SocketAddress? = nil, body: [UInt8] = []
    ) {
        self.method = method
        self.pathSegments = pathSegments
        self.query = query
        self.headers = headers
        self.remoteAddress = remoteAddress
        self.body = body
    }

    /// The decoded path, segments joined by `/`: for logs and messages, not for routing.
    public var path: String { "/" + pathSegments.joined(separator: "/") }

    /// The cookies of the `Cookie` header (RFC 6265 §5.4); the first of a repeated name wins.
    public var cookies: [String: String] { Self.cookies(in: headers) }

    /// The cookies of the `Cookie` fields of `headers`.
    static func cookies(in headers: HTTPHeaders) -> [String: String] {
        var cookies: [String: String] = [:]
        for header in headers.values(for: "Cookie") {
            for pair in header.split(separator: ";") {
                // Empty pieces are kept: a bare `=` splits into two empty parts, never into none.
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = parts[0].trimmingASCIIWhitespace()
                guard !name.isEmpty, cookies[name] == nil else { continue }
                var value = parts.count > 1 ? parts[1].trimmingASCIIWhitespace() : ""
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                    value = String(value.dropFirst().dropLast())
                }
                cookies[name] = value
            }
        }
        return cookies
    }

    /// The value of the cookie `name`, as `cookies[name]` gives it, without building the whole table:
    /// a form post reads one cookie on every request.
    public func cookie(named name: String) -> String? { Self.cookie(named: name, in: headers) }

    /// The cookie `name` among the `Cookie` fields of `headers`, read where they are stored.
    static func cookie(named name: String, in headers: HTTPHeaders) -> String? {
        var wanted = name
        return wanted.withUTF8 { wanted in
            var found: String?
            headers.forEachValue(named: "Cookie") { bytes in
                found = cookie(wanted, in: bytes)
                return found == nil
            }
            return found
        }
    }

    /// The value of the first `wanted=value` pair of one `Cookie` header, trimmed and unquoted.
    static func cookie(_ wanted: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var start = 0
        while start <= bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
            let equals = bytes[start..<end].firstIndex(of: UInt8(ascii: "=")) ?? end
            let pairName = trimmed(bytes, start..<equals)
            if pairName.count == wanted.count, bytes[pairName].elementsEqual(wanted) {
                var value = equals < end ? trimmed(bytes, (equals + 1)..<end) : end..<end
                if value.count >= 2, bytes[value.lowerBound] == UInt8(ascii: "\""),
                    bytes[value.upperBound - 1] == UInt8(ascii: "\"")
                {
                    value = (value.lowerBound + 1)..<(value.upperBound - 1)
                }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[value]), as: UTF8.self)
            }
            start = end + 1
        }
        return nil
    }

    /// `range` of `bytes` without leading and trailing spaces and tabs (HTTP's OWS).
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, bytes[lower] == UInt8(ascii: " ") || bytes[lower] == UInt8(ascii: "\t") { lower += 1 }
        while upper > lower, bytes[upper - 1] == UInt8(ascii: " ") || bytes[upper - 1] == UInt8(ascii: "\t") {
            upper -= 1
        }
        return lower..<upper
    }

    /// The media type of the content, lowercased and without parameters: `application/json`.
    public var contentType: String? {
        var type: String?
        // The first field counts, as `headers["Content-Type"]` gives it.
        headers.forEachValue(named: "Content-Type") { bytes in
            type = Self.mediaType(in: bytes)
            return false
        }
        return type
    }

    /// The media type the `Content-Type` value `bytes` names, lowercased, without parameters; nil for
    /// none. Read byte by byte: it is asked for on every post, and a media type is ASCII (RFC 9110 §8.3.1).
    static func mediaType(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let range = trimmed(bytes, 0..<(bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count))
        guard !range.isEmpty else { return nil }
        return String(unsafeUninitializedCapacity: range.count) { output in
            for (offset, index) in range.enumerated() { output[offset] = asciiLowercased(bytes[index]) }
            return range.count
        }
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs, as HTTP's OWS (RFC 9110 §5.6.3).
    func trimmingASCIIWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}

extension Request {
    /// A path for messages: decoded segments joined, length-capped so a message stays readable.
    public static func pathText(_ segments: [String]) -> String {
        let path = "/" + segments.joined(separator: "/")
        return path.count > 200 ? String(path.prefix(200)) + "…" : path
    }
}
