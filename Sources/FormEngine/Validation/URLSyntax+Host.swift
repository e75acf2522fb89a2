// The "host writing" half of URLSyntax: valid domain, IPv4-address and IPv6-address strings.

extension URLSyntax {
    /// Longest label and longest domain, counted in their ASCII (Punycode) form.
    // The URL Standard's "valid domain" runs domain to ASCII with beStrict true, which sets UTS #46
    // VerifyDnsLength: "The length of each label is from 1 to 63" and the whole name at most 253.
    static let maximumLabelLength = 63
    static let maximumDomainLength = 253

    /// Why `host` is neither a valid domain string nor a valid IPv4-address string, or nil when it is one.
    ///
    /// Domains follow UTS #46 ToASCII with the strict flags the URL Standard's "valid domain" uses
    /// (UseSTD3ASCIIRules, CheckHyphens, VerifyDnsLength), approximated without Unicode's IDNA tables:
    /// non-ASCII labels may hold letters, combining marks and decimal digits, and are measured in Punycode.
    static func domainOrIPv4Problem(_ host: ArraySlice<Unicode.Scalar>) -> String? {
        if isPlainASCIIDomain(host) { return nil }
        let mapped = host.map(idnaMapped)
        let labels = mapped.split(separator: ".", omittingEmptySubsequences: false)
        // Each dot counts once in the ASCII length; the labels add theirs below.
        var asciiLength = labels.count - 1
        for label in labels {
            // VerifyDnsLength rejects empty labels; that includes a trailing dot ("example.com.").
            guard !label.isEmpty else { return "the host has an empty label (“..” or a leading or trailing “.”)" }
            if let problem = labelProblem(label, asciiLength: &asciiLength) { return problem }
        }
        guard asciiLength <= maximumDomainLength else { return "the host is longer than 253 characters" }
        // Host parser: "If asciiDomain ends in a number, then return the result of IPv4 parsing asciiDomain",
        // so "256.1.1.1" or "example.123" fail to parse at all; a valid one is a "valid IPv4-address string".
        if let last = labels.last, endsInNumber(last), !isValidIPv4(mapped[...]) {
            return "the host ends in a number but is not an IPv4 address of four numbers from 0 to 255"
        }
        return nil
    }

    /// Whether `host` is an everyday ASCII domain (`example.com`, `mail.Example.org`) that passes every
    /// check below without mapping or splitting it: labels of 1 to 63 letters, digits and inner hyphens,
    /// no "--" in third and fourth place, at most 253 in all, and a last label that does not start with
    /// a digit (so it cannot end in a number). Anything else, valid or not, takes the full path, which
    /// alone words the problems.
    private static func isPlainASCIIDomain(_ host: ArraySlice<Unicode.Scalar>) -> Bool {
        guard host.count <= maximumDomainLength else { return false }
        var labelStart = host.startIndex
        var index = host.startIndex
        while true {
            while index < host.endIndex, isASCIIAlphanumeric(host[index]) || host[index] == "-" { index += 1 }
            let length = index - labelStart
            guard length >= 1, length <= maximumLabelLength, host[labelStart] != "-", host[index - 1] != "-" else {
                return false
            }
            if length >= 4, host[labelStart + 2] == "-", host[labelStart + 3] == "-" { return false }
            if index == host.endIndex { return !isASCIIDigit(host[labelStart]) }
            guard host[index] == "." else { return false }
            index += 1
            labelStart = index
        }
    }

    /// Checks one non-empty label and adds its ASCII length.
    private static func labelProblem(_ label: ArraySlice<Unicode.Scalar>, asciiLength: inout Int) -> String? {
        // UseSTD3ASCIIRules: the only ASCII allowed is letters, digits and "-" (so no "_", "%" or "*").
        for scalar in label where !(isASCIIAlphanumeric(scalar) || scalar == "-" || isIDNLetter(scalar)) {
            return "the host contains “\(Character(scalar))”, which is not a letter, digit or “-”"
        }
        // CheckHyphens: "must neither begin nor end with U+002D" and not have "--" in the third and fourth
        // positions, which only Punycode ("xn--") labels may, after decoding.
        guard label.first != "-", label.last != "-" else { return "a host label starts or ends with “-”" }
        guard label.count <= maximumLabelLength else { return "a host label is longer than 63 characters" }
        let third = label.index(label.startIndex, offsetBy: 2, limitedBy: label.endIndex)
        if let third, third + 1 < label.endIndex, label[third] == "-", label[third + 1] == "-" {
            let isPunycode = label.starts(with: ["x", "n"]) && label.allSatisfy(\.isASCII)
            guard isPunycode else { return "a host label has “--” in third and fourth place" }
            guard label.count > 4 else { return "a host label is an empty “xn--” label" }
        }
        if label.allSatisfy(\.isASCII) {
            asciiLength += label.count
            return nil
        }
        // UTS #46 validity criteria: "The label must not begin with a combining mark."
        if let first = label.first, isMark(first) { return "a host label starts with a combining mark" }
        let encoded = "xn--".count + punycodeLength(label)
        guard encoded <= maximumLabelLength else {
            return "a host label is longer than 63 characters once encoded as Punycode"
        }
        asciiLength += encoded
        return nil
    }

    /// The UTS #46 mappings this check applies: fullwidth forms to ASCII, the ideographic and halfwidth
    /// full stops to ".", and letters to their single-scalar lowercase, so "ＥＸＡＭＰＬＥ。com" is "example.com".
    // Lowercasing before measuring keeps the Punycode length that of the label UTS #46 would encode.
    private static func idnaMapped(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar.value {
        case 0xFF01...0xFF5E: return asciiLowercased(Unicode.Scalar(UInt8(scalar.value - 0xFEE0)))
        case 0x3002, 0xFF61: return "."
        case 0..<0x80: return asciiLowercased(scalar)
        default:
            guard scalar.properties.changesWhenLowercased else { return scalar }
            let lower = scalar.properties.lowercaseMapping.unicodeScalars
            return lower.count == 1 ? lower.first ?? scalar : scalar
        }
    }

    /// Letters, combining marks and decimal digits beyond ASCII: the "reasonable" IDN repertoire.
    private static func isIDNLetter(_ scalar: Unicode.Scalar) -> Bool {
        guard !scalar.isASCII else { return false }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber:
            return true
        default:
            return isMark(scalar)
        }
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    /// The URL Standard's "ends in a number checker" for a last label already known to be non-empty:
    /// all ASCII digits, or "0x" followed by zero or more hex digits.
    private static func endsInNumber(_ last: ArraySlice<Unicode.Scalar>) -> Bool {
        if last.allSatisfy(isASCIIDigit) { return true }
        return last.starts(with: ["0", "x"]) && last.dropFirst(2).allSatisfy(isASCIIHexDigit)
    }

    /// "A valid IPv4-address string must be four shortest possible strings of ASCII digits, representing a
    /// decimal number in the range 0 to 255, inclusive, separated from each other by U+002E (.)."
    static func isValidIPv4(_ text: ArraySlice<Unicode.Scalar>) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                guard (1...3).contains(part.count), part.allSatisfy(isASCIIDigit) else { return false }
                // "Shortest possible": no leading zero except "0" itself.
                guard part.count == 1 || part.first != "0" else { return false }
                return part.reduce(0) { $0 * 10 + Int($1.value - 0x30) } <= 255
            }
    }

    /// A valid IPv6-address string per RFC 4291 §2.2: eight groups of one to four hex digits, one "::"
    /// standing for one or more zero groups, and an optional dotted-quad IPv4 tail counting as two groups.
    // No zone identifier ("%25eth0"): the URL Standard's IPv6 parser rejects "%" as IPv6-invalid-code-point.
    static func isValidIPv6(_ text: ArraySlice<Unicode.Scalar>) -> Bool {
        var index = text.startIndex
        var groups = 0
        var compressed = false
        if text.starts(with: [":", ":"]) {
            compressed = true
            index += 2
        } else if text.first == ":" {
            return false
        }
        while index < text.endIndex {
            let groupStart = index
            while index < text.endIndex, index - groupStart < 5, isASCIIHexDigit(text[index]) { index += 1 }
            if index < text.endIndex, text[index] == "." {
                // The IPv4 tail must end the address and leave room for its two groups.
                guard groups <= 6, isValidIPv4(text[groupStart...]) else { return false }
                groups += 2
                break
            }
            guard (1...4).contains(index - groupStart) else { return false }
            groups += 1
            if index == text.endIndex { break }
            guard text[index] == ":", index + 1 < text.endIndex else { return false }
            index += 1
            if text[index] == ":" {
                guard !compressed else { return false }
                compressed = true
                index += 1
            }
        }
        // RFC 4291: "::" indicates "one or more groups of 16 bits of zeros", so at most seven written groups.
        return compressed ? groups <= 7 : groups == 8
    }

    /// The length of the RFC 3492 Punycode encoding of `label`, without the "xn--" prefix.
    // Only the length matters here, so this is the encoder of RFC 3492 §6.3 counting digits instead of
    // emitting them. Labels reach it only when at most 63 scalars long, which bounds its quadratic loop.
    static func punycodeLength(_ label: ArraySlice<Unicode.Scalar>) -> Int {
        let base = 36
        let tMin = 1
        let tMax = 26
        let values = label.map { Int($0.value) }
        let basicCount = values.count(where: { $0 < 0x80 })
        var length = basicCount + (basicCount > 0 ? 1 : 0)
        var next = 0x80
        var delta = 0
        var bias = 72
        var handled = basicCount
        while handled < values.count, let smallest = values.filter({ $0 >= next }).min() {
            delta += (smallest - next) * (handled + 1)
            next = smallest
            for value in values {
                if value < next { delta += 1 }
                guard value == next else { continue }
                var remainder = delta
                var k = base
                while true {
                    let threshold = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                    if remainder < threshold { break }
                    length += 1
                    remainder = (remainder - threshold) / (base - threshold)
                    k += base
                }
                length += 1
                bias = punycodeBias(delta: delta, count: handled + 1, isFirst: handled == basicCount)
                delta = 0
                handled += 1
            }
            delta += 1
            next += 1
        }
        return length
    }

    /// RFC 3492 §6.1 bias adaptation.
    private static func punycodeBias(delta: Int, count: Int, isFirst: Bool) -> Int {
        var delta = isFirst ? delta / 700 : delta / 2
        delta += delta / count
        var k = 0
        while delta > (35 * 26) / 2 {
            delta /= 35
            k += 36
        }
        return k + (36 * delta) / (delta + 38)
    }
}
