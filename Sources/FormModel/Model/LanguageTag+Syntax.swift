extension LanguageTag {
    /// Whether `tag` is a well-formed BCP 47 language tag (RFC 5646 §2.1, "Syntax"): `fr`, `fr-FR`,
    /// `zh-Hans-CN`, `de-CH-1996`, `en-US-u-ca-gregory`, `x-private`, or one of the irregular
    /// grandfathered tags (`i-klingon`). Well-formed is a matter of shape, not of the IANA registry:
    /// `xx-Klingon` is well-formed (a two-letter language and a seven-letter variant) though neither is
    /// registered, while `en_US`, `e`, `fr--FR` and `english-language-tag!` are not.
    public static func isWellFormed(_ tag: String) -> Bool {
        guard tag.utf8.count <= 256, tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
        else { return false }
        let lowered = tag.lowercased()
        if irregular.contains(lowered) { return true }
        let parts = lowered.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        if parts.first == "x" { return isPrivateUse(parts[...]) }
        var rest = parts[...]
        // language = 2*3ALPHA ["-" extlang] / 4ALPHA / 5*8ALPHA; extlang = 3ALPHA *2("-" 3ALPHA)
        guard let language = rest.popFirst(), isAlpha(language), (2...8).contains(language.count) else { return false }
        if language.count <= 3 {
            var extlangs = 0
            while extlangs < 3, let next = rest.first, next.count == 3, isAlpha(next) {
                rest.removeFirst()
                extlangs += 1
            }
        }
        // script = 4ALPHA
        if let next = rest.first, next.count == 4, isAlpha(next) { rest.removeFirst() }
        // region = 2ALPHA / 3DIGIT
        if let next = rest.first, (next.count == 2 && isAlpha(next)) || (next.count == 3 && isDigits(next)) {
            rest.removeFirst()
        }
        // variant = 5*8alphanum / (DIGIT 3alphanum)
        while let next = rest.first,
            (5...8).contains(next.count) || (next.count == 4 && next.first!.isNumber)
        {
            rest.removeFirst()
        }
        // extension = singleton 1*("-" (2*8alphanum)); singleton is any alphanumeric but x
        while let singleton = rest.first, singleton.count == 1, singleton != "x" {
            rest.removeFirst()
            var subtags = 0
            while let next = rest.first, (2...8).contains(next.count) {
                rest.removeFirst()
                subtags += 1
            }
            guard subtags > 0 else { return false }
        }
        if rest.first == "x" { return isPrivateUse(rest) }
        return rest.isEmpty
    }

    /// `x` then one or more subtags of 1 to 8 alphanumerics.
    private static func isPrivateUse(_ parts: ArraySlice<String>) -> Bool {
        parts.count > 1 && parts.dropFirst().allSatisfy { (1...8).contains($0.count) }
    }

    private static func isAlpha(_ text: String) -> Bool { text.allSatisfy(\.isLetter) }
    private static func isDigits(_ text: String) -> Bool { text.allSatisfy(\.isNumber) }

    /// The irregular grandfathered tags (RFC 5646 §2.1), which the syntax above does not match.
    private static let irregular: Set<String> = [
        "en-gb-oed", "i-ami", "i-bnn", "i-default", "i-enochian", "i-hak", "i-klingon", "i-lux", "i-mingo",
        "i-navajo", "i-pwn", "i-tao", "i-tay", "i-tsu", "sgn-be-fr", "sgn-be-nl", "sgn-ch-de",
    ]
}
