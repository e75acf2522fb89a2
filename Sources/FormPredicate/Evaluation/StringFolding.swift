import Foundation

/// The `[c]` and `[d]` foldings, applied to both operands before comparing.
enum StringFolding {
    static func fold(_ text: String, _ options: ComparisonOptions) -> String {
        var folded = text
        if options.contains(.diacriticInsensitive) {
            // NFD, then drop combining marks: é -> e, Å -> A.
            var scalars = String.UnicodeScalarView()
            for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars {
                switch scalar.properties.generalCategory {
                case .nonspacingMark, .spacingMark, .enclosingMark: continue
                default: scalars.append(scalar)
                }
            }
            folded = String(scalars)
        }
        if options.contains(.caseInsensitive) {
            // Upper then lower approximates full case folding: ß -> SS -> ss, so 'Straße' ==[c] 'STRASSE'.
            folded = folded.uppercased().lowercased()
        }
        return folded
    }
}

/// Substring, prefix and suffix tests by Unicode scalar, after folding.
enum StringSearch {
    // Foundation finds no range for an empty needle, so CONTAINS '' and BEGINSWITH '' are false.
    static func contains(_ text: String, _ needle: String, options: ComparisonOptions) -> Bool {
        let haystack = Array(StringFolding.fold(text, options).utf8)
        let part = Array(StringFolding.fold(needle, options).utf8)
        guard !part.isEmpty, part.count <= haystack.count else { return false }
        for start in 0...(haystack.count - part.count) where haystack[start] == part[0] {
            if haystack[start..<(start + part.count)].elementsEqual(part) { return true }
        }
        return false
    }

    static func hasPrefix(_ text: String, _ prefix: String, options: ComparisonOptions) -> Bool {
        let part = StringFolding.fold(prefix, options)
        return !part.isEmpty && StringFolding.fold(text, options).utf8.starts(with: part.utf8)
    }

    static func hasSuffix(_ text: String, _ suffix: String, options: ComparisonOptions) -> Bool {
        let part = StringFolding.fold(suffix, options)
        return !part.isEmpty && StringFolding.fold(text, options).utf8.reversed().starts(with: part.utf8.reversed())
    }
}
