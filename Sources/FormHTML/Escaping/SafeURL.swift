/// URLs placed in `href` and `action`: schemes that run script never reach a page, and form ids
/// are percent-encoded as one path segment.
enum SafeURL {
    /// `url` when it is relative or uses http, https, mailto or tel; nil otherwise (`javascript:`,
    /// `data:`, `vbscript:`…). Browsers strip tabs and newlines from URLs and ignore leading spaces
    /// and controls (URL Standard, "basic URL parser"), so the scheme is read the same way.
    static func link(_ url: String) -> String? {
        let cleaned = String(
            url.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }.drop { $0.value <= 0x20 })
        guard !cleaned.isEmpty else { return nil }
        guard let colon = cleaned.firstIndex(of: ":") else { return cleaned }
        let scheme = cleaned[..<colon]
        // A colon after a `/`, `?` or `#` belongs to a path, query or fragment: the URL is relative.
        if scheme.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { return cleaned }
        let allowed: Set<String> = ["http", "https", "mailto", "tel"]
        return allowed.contains(scheme.lowercased()) ? cleaned : nil
    }

    /// `/forms/{id}` with `id` percent-encoded as a path segment (RFC 3986 §2.3 unreserved kept).
    static func formPath(_ id: String) -> String {
        "/forms/" + segment(id)
    }

    /// `text` percent-encoded so it stays a single path segment.
    static func segment(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                result.unicodeScalars.append("%")
                result.unicodeScalars.append(hex[Int(byte >> 4)])
                result.unicodeScalars.append(hex[Int(byte & 0xF)])
            }
        }
        return result
    }
}
