/// Whether a string is an absolute URL a form may accept: a WHATWG "valid URL string" with an allowed scheme.
///
/// The rules are the URL Standard's "URL writing" section (absolute-URL-with-fragment string) and
/// "host writing" section (valid host string), checked by forward scans over the Unicode scalars: linear
/// time, no Foundation, no regular expression. Nothing is trimmed; the caller trims if it wants to.
///
/// ```swift
/// URLSyntax.check("https://example.com/a?b#c")  // .valid
/// URLSyntax.check("//example.com")              // .notAbsolute
/// URLSyntax.check("javascript:alert(1)")        // .schemeNotAllowed("javascript")
/// URLSyntax.check("http://user:pw@example.com")  // .invalid(reason: "contains a user name or password, …")
/// URLSyntax.check("mailto:ada@example.com", allowedSchemes: ["mailto"])  // .valid
/// ```
public enum URLSyntax {
    /// The outcome of a check, most specific first.
    public enum Verdict: Sendable, Hashable {
        /// An absolute URL with an allowed scheme, valid per the URL Standard.
        case valid
        /// Empty, or no scheme: a relative reference such as `/path`, `//host` or `example.com`.
        case notAbsolute
        /// A well-formed scheme that is not in the allowed list, lowercased (`javascript`, `data`, `ftp`).
        case schemeNotAllowed(String)
        /// An allowed scheme but a malformed rest, with a plain-English reason.
        case invalid(reason: String)

        /// Whether the verdict is `.valid`.
        public var isValid: Bool { self == .valid }
    }

    /// The URL Standard's special schemes ("URL miscellaneous"); all but `file` must have a host.
    static let specialSchemes: Set<String> = ["ftp", "file", "http", "https", "ws", "wss"]

    /// Checks `text` as an absolute URL whose scheme is one of `allowedSchemes` (compared case-insensitively).
    ///
    /// A disallowed scheme is reported before the rest is looked at, so `data:text/html,<script>` is
    /// `.schemeNotAllowed("data")` rather than `.invalid`.
    public static func check(_ text: String, allowedSchemes: [String] = ["http", "https"]) -> Verdict {
        if text.isEmpty { return .notAbsolute }
        let scalars = Array(text.unicodeScalars)
        let schemeEnd = schemeLength(scalars)
        var scheme = ""
        if let schemeEnd {
            scheme = lowercasedScheme(scalars[..<schemeEnd])
            // Allowed schemes are usually written in lower case already: equal text needs no lowercasing.
            guard allowedSchemes.contains(where: { $0 == scheme || $0.lowercased() == scheme }) else {
                return .schemeNotAllowed(scheme)
            }
        }
        // URL Standard, "invalid-URL-unit": spaces and controls are never URL units, and the parser's
        // silent stripping of leading and trailing ones is exactly what a valid URL string must not need.
        if let bad = scalars.first(where: isSpaceOrControl) {
            return .invalid(reason: "contains a space or control character (\(codePoint(bad)))")
        }
        guard let schemeEnd else { return .notAbsolute }
        // "invalid-reverse-solidus": parsers read "\" as "/" in special URLs; a valid URL string never has one.
        if scalars.contains("\\") {
            return .invalid(reason: "contains a backslash (“\\”); URLs use “/”")
        }
        let rest = scalars[(schemeEnd + 1)...]
        let reason: String?
        if scheme == "file" {
            reason = fileProblem(rest)
        } else if specialSchemes.contains(scheme) {
            reason = specialProblem(rest, scheme: scheme)
        } else {
            reason = opaqueProblem(rest)
        }
        return reason.map { .invalid(reason: $0) } ?? .valid
    }

    // MARK: - Scheme and character classes

    /// The length of a leading URL-scheme string followed by ":", or nil when the text has no scheme.
    // URL Standard: "A URL-scheme string must be one ASCII alpha, followed by zero or more of ASCII
    // alphanumeric, U+002B (+), U+002D (-), and U+002E (.)."
    private static func schemeLength(_ scalars: [Unicode.Scalar]) -> Int? {
        guard let first = scalars.first, isASCIIAlpha(first) else { return nil }
        for (index, scalar) in scalars.enumerated().dropFirst() {
            if scalar == ":" { return index }
            guard isASCIIAlphanumeric(scalar) || scalar == "+" || scalar == "-" || scalar == "." else { return nil }
        }
        return nil
    }

    /// The scheme in lower case, written straight into the string: `schemeLength` checked that its
    /// scalars are ASCII.
    private static func lowercasedScheme(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        String(unsafeUninitializedCapacity: scalars.count) { buffer in
            for (offset, scalar) in scalars.enumerated() { buffer[offset] = UInt8(asciiLowercased(scalar).value) }
            return scalars.count
        }
    }

    /// C0 controls, U+0020 SPACE, DEL and C1 controls: none is a URL code point.
    private static func isSpaceOrControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value <= 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// The URL Standard's "URL code points".
    // ASCII alphanumeric, !$&'()*+,-./:;=?@_~ and U+00A0 to U+10FFFD excluding surrogates (which a
    // Unicode.Scalar cannot hold) and noncharacters. Deliberately absent: space " # % < > [ \ ] ^ ` { | }.
    static func isURLCodePoint(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            if isASCIIAlphanumeric(scalar) { return true }
            switch scalar {
            case "!", "$", "&", "'", "(", ")", "*", "+", ",", "-", ".", "/", ":", ";", "=", "?", "@", "_", "~":
                return true
            default: return false
            }
        }
        let value = scalar.value
        let isNoncharacter = (0xFDD0...0xFDEF).contains(value) || value & 0xFFFE == 0xFFFE
        return value >= 0xA0 && !isNoncharacter
    }

    /// Checks a run of URL units (URL code points and `%XX`), used for paths, queries, fragments and the
    /// rest of a non-special URL.
    // URL Standard: path segments, "URL-query string" and "URL-fragment string" are all "zero or more
    // URL units"; "#" is not a URL code point, so only the first "#" (which starts the fragment) is allowed.
    private static func unitsProblem(_ scalars: ArraySlice<Unicode.Scalar>) -> String? {
        var index = scalars.startIndex
        var inFragment = false
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if scalar == "%" {
                // "A percent-encoded byte is U+0025 (%), followed by two ASCII hex digits."
                guard index + 2 < scalars.endIndex, isASCIIHexDigit(scalars[index + 1]),
                    isASCIIHexDigit(scalars[index + 2])
                else { return "has a “%” that is not followed by two hexadecimal digits" }
                index += 3
                continue
            }
            if scalar == "#" {
                if inFragment { return "has a second “#”; percent-encode it as “%23”" }
                inFragment = true
            } else if !isURLCodePoint(scalar) {
                let shown = scalar.isASCII ? "“\(Character(scalar))”" : codePoint(scalar)
                return "contains \(shown), which must be percent-encoded"
            }
            index += 1
        }
        return nil
    }

    // MARK: - The three kinds of absolute URL

    /// `http`, `https`, `ws`, `wss`, `ftp`: "//", a valid host, an optional port, then path, query, fragment.
    // URL Standard: "A scheme-relative-special-URL string must be "//", followed by a valid host string,
    // optionally followed by U+003A (:) and a URL-port string, optionally followed by a path-absolute-URL
    // string." Parsers accept "http:example.com" with a validation error; a valid URL string may not.
    private static func specialProblem(_ rest: ArraySlice<Unicode.Scalar>, scheme: String) -> String? {
        guard let (authority, tail) = splitAuthority(rest) else {
            return "“\(scheme):” must be followed by “//” and a host"
        }
        if let problem = authorityProblem(authority, hostRequired: true, portAllowed: true) { return problem }
        return unitsProblem(tail)
    }

    /// `file`: "//" then a valid host and an absolute path, or "///" and an absolute path; never a port.
    // URL Standard: "A scheme-relative-file-URL string must be "//", followed by one of: a valid host string,
    // optionally followed by a path-absolute-non-Windows-file-URL string; a path-absolute-URL string."
    private static func fileProblem(_ rest: ArraySlice<Unicode.Scalar>) -> String? {
        guard let (authority, tail) = splitAuthority(rest) else { return "“file:” must be followed by “//”" }
        if authority.isEmpty {
            guard tail.first == "/" else { return "has neither a host nor an absolute path" }
        } else {
            if let problem = authorityProblem(authority, hostRequired: true, portAllowed: false) { return problem }
            // "path-absolute-non-Windows-file-URL string": with a host, the path may not begin "/C:/".
            let drive = Array(tail.prefix(4))
            if drive.count == 4, drive[0] == "/", isASCIIAlpha(drive[1]), drive[2] == ":" || drive[2] == "|",
                drive[3] == "/"
            {
                return "a file URL with a host cannot have a Windows drive letter path"
            }
        }
        return unitsProblem(tail)
    }

    /// Any other scheme (`mailto:`, `urn:`, `ssh://`): an optional opaque host, then URL units.
    // URL Standard: a non-special scheme is followed by ":" and a relative-URL string: "//" and an
    // opaque-host-and-port string, or a path, each optionally followed by a query and a fragment. The
    // "path-relative-scheme-less" restriction is not applied: the standard's own example "urn:isbn:…"
    // would fail it.
    private static func opaqueProblem(_ rest: ArraySlice<Unicode.Scalar>) -> String? {
        guard let (authority, tail) = splitAuthority(rest) else { return unitsProblem(rest) }
        if !authority.isEmpty,
            let problem = authorityProblem(authority, hostRequired: false, portAllowed: true, opaque: true)
        {
            return problem
        }
        return unitsProblem(tail)
    }

    // MARK: - Authority

    /// Splits "//authority/path?query#fragment" after the "//": the authority runs to the first "/", "?" or
    /// "#". Nil when `rest` does not start with "//".
    private static func splitAuthority(
        _ rest: ArraySlice<Unicode.Scalar>
    ) -> (authority: ArraySlice<Unicode.Scalar>, tail: ArraySlice<Unicode.Scalar>)? {
        guard rest.starts(with: ["/", "/"]) else { return nil }
        let start = rest.startIndex + 2
        let end = rest[start...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        return (rest[start..<end], rest[end...])
    }

    /// Checks `host[:port]`, with no credentials.
    private static func authorityProblem(
        _ authority: ArraySlice<Unicode.Scalar>, hostRequired: Bool, portAllowed: Bool, opaque: Bool = false
    ) -> String? {
        // URL Standard: "There is no way to express a username or password of a URL record within a valid
        // URL string" ("invalid-credentials").
        if authority.contains("@") {
            return "contains a user name or password, which a valid URL cannot have"
        }
        let afterHost: ArraySlice<Unicode.Scalar>
        if authority.first == "[" {
            guard let close = authority.firstIndex(of: "]") else { return "has an IPv6 address without “]”" }
            let inside = authority[(authority.startIndex + 1)..<close]
            guard isValidIPv6(inside) else {
                return "“[\(String(String.UnicodeScalarView(inside)))]” is not a valid IPv6 address"
            }
            afterHost = authority[(close + 1)...]
            if let first = afterHost.first, first != ":" { return "has unexpected text after the IPv6 address" }
        } else {
            let colon = authority.firstIndex(of: ":") ?? authority.endIndex
            let host = authority[..<colon]
            afterHost = authority[colon...]
            if host.isEmpty {
                if hostRequired || !afterHost.isEmpty { return "has no host" }
            } else if opaque {
                if let problem = opaqueHostProblem(host) { return problem }
            } else if let problem = domainOrIPv4Problem(host) {
                return problem
            }
        }
        guard afterHost.first == ":" else { return nil }
        guard portAllowed else { return "a file URL cannot have a port" }
        return portProblem(afterHost.dropFirst())
    }

    /// "A URL-port string must be one of the following: the empty string; one or more ASCII digits
    /// representing a decimal number that is a 16-bit unsigned integer."
    // Leading zeros are allowed by that sentence ("0080" is port 80), and so is an empty port ("host:").
    private static func portProblem(_ port: ArraySlice<Unicode.Scalar>) -> String? {
        var value = 0
        for scalar in port {
            guard isASCIIDigit(scalar) else { return "the port must be digits only" }
            value = value * 10 + Int(scalar.value - 0x30)
            if value > 65535 { return "the port must be a number from 0 to 65535" }
        }
        return nil
    }

    /// "A valid opaque-host string must be one or more URL units excluding forbidden host code points."
    private static func opaqueHostProblem(_ host: ArraySlice<Unicode.Scalar>) -> String? {
        // Forbidden host code points that are URL code points; the rest are already excluded by URL units.
        if let bad = host.first(where: { "/:?@[]".unicodeScalars.contains($0) }) {
            return "the host contains “\(Character(bad))”"
        }
        return unitsProblem(host).map { "the host " + $0 }
    }

    // MARK: - ASCII helpers

    /// Infra's "ASCII alpha".
    static func isASCIIAlpha(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    /// Infra's "ASCII digit".
    static func isASCIIDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    /// Infra's "ASCII alphanumeric".
    static func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool { isASCIIAlpha(scalar) || isASCIIDigit(scalar) }

    /// Infra's "ASCII hex digit".
    static func isASCIIHexDigit(_ scalar: Unicode.Scalar) -> Bool {
        isASCIIDigit(scalar) || ("a"..."f").contains(scalar) || ("A"..."F").contains(scalar)
    }

    /// Infra's "ASCII lowercase" of one scalar; everything but A–Z is returned unchanged.
    static func asciiLowercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        ("A"..."Z").contains(scalar) ? Unicode.Scalar(UInt8(scalar.value) + 0x20) : scalar
    }

    /// "U+0009"-style name of a code point, for reasons that must show an invisible character.
    private static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
