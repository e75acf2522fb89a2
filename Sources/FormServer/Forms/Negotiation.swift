import FormEngine
import HTTPServer

/// How a client wants its answer.
enum Negotiation {
    /// JSON for a body of a JSON media type or an `Accept` that prefers `application/json` to HTML; a
    /// page otherwise (a plain browser post sends `Accept: text/html,…`). A body in `text/json` or
    /// `application/vnd.api+json` is refused (415), but its sender speaks JSON and reads the refusal so.
    /// `contentType` is `request.contentType`, read once by the caller.
    static func wantsJSON(_ request: Request, contentType: String?) -> Bool {
        if let contentType, isJSON(mediaType: contentType) { return true }
        guard let header = request.headers["Accept"] else { return false }
        if header == "application/json" { return true }  // what API clients send, without parsing
        let (json, html) = qualities(in: header)
        return json > 0 && json > html
    }

    /// Whether `mediaType` (lowercase, without parameters) is JSON: `…/json` or a `+json` suffix (RFC 6839 §3.1).
    static func isJSON(mediaType: String) -> Bool {
        mediaType.hasSuffix("/json") || mediaType.hasSuffix("+json")
    }

    /// Whether a client's `headers` take an HTML page: its `Accept` gives `text/html` a `q` above 0.
    static func takesHTML(_ headers: HTTPHeaders) -> Bool {
        guard let accept = headers["Accept"] else { return false }
        return qualities(in: accept).html > 0
    }

    /// The `q` an `Accept` header gives `application/json` and `text/html` exactly (RFC 9110 §12.5.1),
    /// each 0 when absent; the first member naming a type gives its quality.
    static func qualities(in accept: String) -> (json: Double, html: Double) {
        var found: (json: Double?, html: Double?) = (nil, nil)
        QualityList.forEachMember(in: accept) { type, quality in
            if found.json == nil, matches(type, "application/json") {
                found.json = quality
            } else if found.html == nil, matches(type, "text/html") {
                found.html = quality
            }
        }
        return (found.json ?? 0, found.html ?? 0)
    }

    /// Whether `bytes` is `type` (lowercase), ASCII case-insensitively.
    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ type: StaticString) -> Bool {
        guard bytes.count == type.utf8CodeUnitCount else { return false }
        let expected = type.utf8Start
        for (offset, byte) in bytes.enumerated() {
            let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            guard lowered == expected[offset] else { return false }
        }
        return true
    }
}
