import FormPredicate

/// Words in a condition with neither `$` nor quotes: `sw == true` (the row is `$sw`), `$pos == Backend`
/// (the text is `'Backend'`). A form's predicate has no object behind it, so such a word reads nil and
/// the comparison never holds as meant; each is a load problem that says what to write instead.
enum BareWordChecks {
    /// What a variable compared with a bare word reads: its tag and, for a selector, its options.
    typealias Reading = (name: String, options: [Option])

    /// The problems of `predicate`'s bare words; `names` are the tags a condition may read with `$`, and
    /// `reading` tells what the variable at an index reads, when it is a row's value.
    static func problems(of predicate: Predicate, names: Set<String>, reading: (Int) -> Reading?) -> [String] {
        predicate.bareKeys.map { bare in
            let word = bare.key
            let at = "at column \(bare.column) in '\(predicate.source)'"
            if names.contains(word) {
                return "'\(word)' names a row but lacks its '$', so it reads nothing: write $\(word), \(at)"
            }
            if let variable = bare.comparedWith, let row = reading(variable) {
                if let option = row.options.first(where: { $0.value == word || $0.title == word }) {
                    return "\(word) without quotes is a word that reads nothing, never the option: "
                        + "$\(row.name) reads option values, so write '\(option.value)', \(at)"
                }
                return "\(word) without quotes is a word that reads nothing, not the text '\(word)': "
                    + "write '\(word)' in quotes, \(at)"
            }
            return "'\(word)' is neither a row ($tag) nor text ('\(word)'), so it reads nothing: "
                + "write $\(word) or '\(word)', \(at)"
        }
    }
}
