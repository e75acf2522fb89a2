private import CMicroHTTPD

/// What the first handler call's one pass over libmicrohttpd's header table gathers: the framing,
/// what makes a header block unacceptable, and what a page asks of every request.
struct HeaderScan {
    /// How many `Content-Length` fields came, the first one's value, and every `Transfer-Encoding`
    /// field's value joined as one list (RFC 9110 §5.3), so `chunked` then `gzip` ends in `gzip`.
    var framing: (contentLengths: Int, contentLength: String?, transferEncoding: String?) = (0, nil, nil)
    /// How many `Host` fields came.
    var hosts = 0
    /// The first field name that is no token (`Transfer-Encoding ` has a space in it), in
    /// libmicrohttpd's table: a pointer, not a string, so a scan of well-formed fields costs nothing more.
    var badName: UnsafePointer<CChar>?
    /// The first `Accept-Language` field's value and whether a `Cookie` field came, for the handler
    /// (`RequestView`): noted here rather than looked up again, a walk of the table each.
    var notes = LibraryFieldNotes()
    /// The connection memory libmicrohttpd 0.9.75 takes to parse the first `Cookie` field, besides the
    /// field itself: a copy of its value and a 48-byte record per cookie (docs/libmicrohttpd.md,
    /// "Connection memory").
    var cookieCost = 0

    /// Why a header block is refused (a field name that is no token, no `Host` or a second), if it is.
    static func problem(badName: UnsafePointer<CChar>?, hosts: Int) -> String? {
        if let badName {
            // Controls and DEL shown as `\x09`, never written raw into a message or a log.
            let shown = String(cString: badName).unicodeScalars.map { scalar in
                guard scalar.value < 0x20 || scalar.value == 0x7F else { return String(scalar) }
                let hex = String(scalar.value, radix: 16)
                return "\\x" + (hex.count < 2 ? "0" + hex : hex)
            }.joined()
            return
                "the header field name '\(shown.prefix(60))' is not a token: no space may stand before the colon (RFC 9112 §5.1)"
        }
        return hosts != 1 ? "a request must carry one Host field (RFC 9112 §3.2)" : nil
    }

    /// The scan of the fields of `connection`'s request.
    init(_ connection: OpaquePointer) {
        withUnsafeMutablePointer(to: &self) { pointer in
            _ = MHD_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, scanHeader, pointer)
        }
    }
}

/// Notes one header field in the `HeaderScan` passed as `cls`.
private let scanHeader: MHD_KeyValueIterator = { cls, _, name, value in
    guard let cls, let name else { return .YES }
    let scan = cls.assumingMemoryBound(to: HeaderScan.self)
    let text = { value.map { String(cString: $0) } ?? "" }
    if cNameMatches(name, "content-length") {
        scan.pointee.framing.contentLengths += 1
        if scan.pointee.framing.contentLength == nil { scan.pointee.framing.contentLength = text() }
    } else if cNameMatches(name, "transfer-encoding") {
        scan.pointee.framing.transferEncoding =
            scan.pointee.framing.transferEncoding.map { "\($0), \(text())" } ?? text()
    } else if cNameMatches(name, "host") {
        scan.pointee.hosts += 1
    } else if cNameMatches(name, "accept-language") {
        if scan.pointee.notes.acceptLanguage == nil { scan.pointee.notes.acceptLanguage = value }
    } else if cNameMatches(name, "cookie") {
        if !scan.pointee.notes.hasCookie, let value { scan.pointee.cookieCost = parsedCookieCost(value) }
        scan.pointee.notes.hasCookie = true
    } else if scan.pointee.badName == nil, !isToken(name) {
        scan.pointee.badName = name
    }
    return .YES
}

/// What libmicrohttpd's parse of the `Cookie` field `value` takes of the connection's memory.
private func parsedCookieCost(_ value: UnsafePointer<CChar>) -> Int {
    var length = 0
    var cookies = 1
    while value[length] != 0 {
        if value[length] == CChar(UInt8(ascii: ";")) { cookies += 1 }
        length += 1
    }
    return length + 1 + 48 * cookies
}

extension HTTPMethod {
    /// Whether the method is a token, as RFC 9110 §9.1 requires: the common ones are, without a look.
    var isToken: Bool {
        if self == .get || self == .post || self == .head { return true }
        return !rawValue.isEmpty && rawValue.utf8.allSatisfy(isTokenByte)
    }
}

/// Whether `byte` may be in a token (`tchar`, RFC 9110 §5.6.2). Constant ranges the compiler turns
/// into a few comparisons: a bit table in a global would be read through its lazy initializer on
/// every byte of every field name.
func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "!"), UInt8(ascii: "#")...UInt8(ascii: "'"),
        UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"),
        UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
        true
    default: false
    }
}

/// Whether the C string `name` is a non-empty token, as a header field name must be.
private func isToken(_ name: UnsafePointer<CChar>) -> Bool {
    var index = 0
    while name[index] != 0 {
        guard isTokenByte(UInt8(bitPattern: name[index])) else { return false }
        index += 1
    }
    return index > 0
}

/// Whether the C string `name` is `lowercased`, ASCII case-insensitively (header names are tokens).
func cNameMatches(_ name: UnsafePointer<CChar>, _ lowercased: StaticString) -> Bool {
    let expected = lowercased.utf8Start
    var index = 0
    while index < lowercased.utf8CodeUnitCount {
        // A shorter name ends in NUL, which matches no letter, so nothing past it is read.
        guard asciiLowercased(UInt8(bitPattern: name[index])) == expected[index] else { return false }
        index += 1
    }
    return name[index] == 0
}
