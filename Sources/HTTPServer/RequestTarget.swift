/// The request target of a request line, split into decoded path segments and query parameters.
///
/// libmicrohttpd percent-decodes the path before the handler sees it, which turns `%2F` into a
/// separator and `%00` into the end of a C string. Formwright therefore takes the raw target from
/// the URI log callback and decodes it here, strictly: one segment at a time (so an encoded `/`
/// stays inside its segment), `%` followed by two hex digits only, valid UTF-8, no NUL.
struct RequestTarget: Equatable, Sendable {
    /// The decoded segments of the path: `/forms/a%20b` gives `["forms", "a b"]`; `/` gives `[]`.
    var segments: [String]
    /// The decoded query parameters, in order.
    var query: QueryParameters

    /// Why a target was refused; every case is a client error.
    enum Failure: Error, Equatable, CustomStringConvertible {
        case notOriginForm
        case badPercentEncoding
        case nulByte

        var description: String {
            switch self {
            case .notOriginForm: "the request target must be a path starting with '/'"
            case .badPercentEncoding: "the request target has malformed percent-encoding or invalid UTF-8"
            case .nulByte: "the request target contains an encoded NUL byte"
            }
        }
    }

    /// Parses an origin-form (`/path?query`) or absolute-form (`http://host/path?query`) target.
    static func parse(_ raw: String) throws(Failure) -> RequestTarget {
        var raw = raw
        // withUTF8 rethrows untyped errors, so the typed failure is carried out by hand
        // (a generic Result here costs a runtime metadata lookup per request).
        var target: RequestTarget?
        var failure = Failure.badPercentEncoding
        raw.withUTF8 { bytes in
            do throws(Failure) { target = try parse(bytes) } catch { failure = error }
        }
        guard let target else { throw failure }
        return target
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> RequestTarget {
        var start = 0
        // RFC 9112 §3.2.2: a server must accept the absolute form; only its path matters here.
        if let afterAuthority = absoluteFormPathStart(bytes) { start = afterAuthority }
        guard start < bytes.count, bytes[start] == UInt8(ascii: "/") else {
            if start == bytes.count && start > 0 { return RequestTarget(segments: [], query: QueryParameters()) }
            throw .notOriginForm
        }
        let queryMark = bytes[start...].firstIndex(of: UInt8(ascii: "?"))
        let pathEnd = queryMark ?? bytes.count
        // A fragment is never sent by a conforming client; treat it as the end of the target.
        let queryEnd = bytes[pathEnd...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.count

        var segments: [String] = []
        segments.reserveCapacity(4)  // most paths have a few segments: one allocation, not one per growth
        var segmentStart = start + 1
        var index = start + 1
        while index <= pathEnd {
            if index == pathEnd || bytes[index] == UInt8(ascii: "/") {
                // A trailing '/' adds no segment (`/forms/` is `/forms`); an inner '//' adds an empty one.
                if index < pathEnd || index > segmentStart {
                    segments.append(try decode(bytes, segmentStart..<index, plusIsSpace: false))
                }
                segmentStart = index + 1
            }
            index += 1
        }
        var query = QueryParameters()
        if let queryMark, queryMark + 1 < queryEnd {
            query = try QueryParameters.parse(bytes, (queryMark + 1)..<queryEnd)
        }
        return RequestTarget(segments: segments, query: query)
    }

    /// For `http://host[:port]/path`, the index of the path's `/` (or the end when there is no path).
    private static func absoluteFormPathStart(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = bytes.first, first != UInt8(ascii: "/") else { return nil }
        for scheme in ["http://", "https://"] {
            let prefix = Array(scheme.utf8)
            guard bytes.count >= prefix.count,
                zip(bytes.prefix(prefix.count), prefix).allSatisfy({ asciiLowercased($0) == $1 })
            else { continue }
            return bytes[prefix.count...].firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") })
                ?? bytes.count
        }
        return nil
    }

    /// Percent-decodes `bytes[range]`; in a query, `+` stands for a space (HTML's urlencoded form).
    static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, plusIsSpace: Bool
    ) throws(Failure) -> String {
        // The common case, plain ASCII with nothing to decode, needs no validation and no intermediate array.
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        var plain = true
        var ascii = true
        for byte in slice {
            if byte == UInt8(ascii: "%") || (plusIsSpace && byte == UInt8(ascii: "+")) { plain = false }
            if byte >= 0x80 { ascii = false }
        }
        if plain {
            if ascii { return String(decoding: slice, as: UTF8.self) }
            guard let text = String(validating: slice, as: UTF8.self) else { throw .badPercentEncoding }
            return text
        }
        // Decoded output is never longer than its input; a scratch buffer on the stack holds it.
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: slice.count) { decoded throws(Failure) in
            var count = 0
            var index = 0
            var decodedASCII = ascii
            while index < slice.count {
                let byte = slice[index]
                if byte == UInt8(ascii: "%") {
                    guard index + 2 < slice.count, let high = hexValue(slice[index + 1]),
                        let low = hexValue(slice[index + 2])
                    else { throw .badPercentEncoding }
                    let value = high << 4 | low
                    guard value != 0 else { throw .nulByte }
                    if value >= 0x80 { decodedASCII = false }
                    decoded[count] = value
                    index += 3
                } else {
                    decoded[count] = plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte
                    index += 1
                }
                count += 1
            }
            let result = UnsafeBufferPointer(rebasing: decoded[..<count])
            // ASCII is valid UTF-8: only text with other bytes pays for validation.
            if decodedASCII { return String(decoding: result, as: UTF8.self) }
            guard let text = String(validating: result, as: UTF8.self) else {
                throw .badPercentEncoding
            }
            return text
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
