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
        // Knuth–Morris–Pratt: linear in both lengths, so two long client values compared with
        // CONTAINS cannot cost their product.
        var failure = [Int](repeating: 0, count: part.count)
        var matched = 0
        for index in 1..<max(1, part.count) {
            while matched > 0, part[index] != part[matched] { matched = failure[matched - 1] }
            if part[index] == part[matched] { matched += 1 }
            failure[index] = matched
        }
        matched = 0
        for byte in haystack {
            while matched > 0, byte != part[matched] { matched = failure[matched - 1] }
            if byte == part[matched] { matched += 1 }
            if matched == part.count { return true }
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
