import HTTPServer

/// How a client wants its answer.
enum Negotiation {
    /// JSON for a JSON body or an `Accept` that prefers `application/json` to HTML; a page otherwise
    /// (a plain browser post sends `Accept: text/html,…`).
    /// `contentType` is `request.contentType`, read once by the caller.
    static func wantsJSON(_ request: Request, contentType: String?) -> Bool {
        if contentType == "application/json" { return true }
        guard let header = request.headers["Accept"] else { return false }
        if header == "application/json" { return true }  // what API clients send, without parsing
        let (json, html) = qualities(in: header)
        return json > 0 && json > html
    }

    /// The `q` an `Accept` header gives `application/json` and `text/html` exactly (RFC 9110 §12.5.1),
    /// each 0 when absent. Walked byte by byte, case-insensitively: a browser's header is long and
    /// comes with every post.
    static func qualities(in accept: String) -> (json: Double, html: Double) {
        var accept = accept
        return accept.withUTF8 { bytes in
            var found: (json: Double?, html: Double?) = (nil, nil)
            var start = 0
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: ",")) ?? bytes.count
                defer { start = end + 1 }
                let parameters = bytes[start..<end].firstIndex(of: UInt8(ascii: ";")) ?? end
                let type = trimmed(bytes, start..<parameters)
                // The first member naming a type gives its quality.
                if found.json == nil, matches(bytes, type, "application/json") {
                    found.json = quality(bytes, parameters..<end)
                } else if found.html == nil, matches(bytes, type, "text/html") {
                    found.html = quality(bytes, parameters..<end)
                }
            }
            return (found.json ?? 0, found.html ?? 0)
        }
    }

    /// The `q` among the parameters `bytes[range]` (`;q=0.8`); 1 when there is none.
    private static func quality(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double {
        var start = range.lowerBound
        while start < range.upperBound {
            let end = bytes[(start + 1)..<range.upperBound].firstIndex(of: UInt8(ascii: ";")) ?? range.upperBound
            let parameter = trimmed(bytes, (start + 1)..<end)
            if parameter.count > 2, bytes[parameter.lowerBound] | 0x20 == UInt8(ascii: "q"),
                bytes[parameter.lowerBound + 1] == UInt8(ascii: "="),
                let value = Double(
                    String(
                        decoding: UnsafeBufferPointer(
                            rebasing: bytes[(parameter.lowerBound + 2)..<parameter.upperBound]), as: UTF8.self))
            {
                return value
            }
            start = end
        }
        return 1
    }

    /// Whether `bytes[range]` is `type` (lowercase), ASCII case-insensitively.
    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ type: StaticString) -> Bool
    {
        guard range.count == type.utf8CodeUnitCount else { return false }
        let expected = type.utf8Start
        for (offset, index) in range.enumerated() {
            let byte = bytes[index]
            let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            guard lowered == expected[offset] else { return false }
        }
        return true
    }

    /// `range` without the spaces and tabs around it.
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var (lower, upper) = (range.lowerBound, range.upperBound)
        while lower < upper, bytes[lower] == UInt8(ascii: " ") || bytes[lower] == UInt8(ascii: "\t") { lower += 1 }
        while upper > lower, bytes[upper - 1] == UInt8(ascii: " ") || bytes[upper - 1] == UInt8(ascii: "\t") {
            upper -= 1
        }
        return lower..<upper
    }
}
