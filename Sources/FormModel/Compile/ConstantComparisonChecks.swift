import FormPredicate

/// Conditions that compare a row with a constant it can never equal or order against: `$agree == 'yes'`
/// on a switch (it reads true or false), `$count == 2` on a selector (its values are text), `$qty
/// CONTAINS 5` on a number. Such a condition is false, or fails and counts as false, on every request:
/// a row shows, or is optional, that the author meant otherwise. They are load problems instead.
enum ConstantComparisonChecks {
    /// What the variable at an index reads, when it reads a row's value: its kind, its type's name, its
    /// tag, and its options when it is a selector.
    typealias RowReading = (kind: ValueKind, type: String, name: String, options: [Option])

    /// The problems of `predicate`'s comparisons with constants, `reading` telling what each variable reads.
    static func problems(of predicate: Predicate, reading: (Int) -> RowReading?) -> [String] {
        var problems: [String] = []
        for comparison in predicate.constantComparisons {
            guard let row = reading(comparison.variable) else { continue }
            // Said only of a problem: it quotes the whole source, and a long chain has many comparisons.
            var at: String { "'\(comparison.comparator)' at column \(comparison.column) in '\(predicate.source)'" }
            if comparison.comparesText, ![.text, .option, .date, .time, .dateTime].contains(row.kind) {
                problems.append("$\(row.name) is \(article(row.type)) row, which holds no text for \(at)")
                continue
            }
            if comparison.comparator == "CONTAINS", ![.text, .options].contains(row.kind) {
                problems.append("$\(row.name) is \(article(row.type)) row: CONTAINS reads text or a list, in \(at)")
                continue
            }
            for constant in comparison.constants {
                if let problem = mismatch(constant, row) ?? notAnOption(constant, row, comparison) {
                    problems.append("\(problem), in \(at)")
                }
            }
        }
        return problems
    }

    /// `a text`, `an integer`, `a url` (said "you-are-ell"): the type's name with its article.
    static func article(_ type: String) -> String {
        let vowel = "aeiou".contains(type.first?.lowercased() ?? "") && !type.lowercased().hasPrefix("url")
        return (vowel ? "an " : "a ") + type
    }

    /// Why the text `constant` can never be one of a selector's values, or nil: a selector reads its
    /// options' values, so an option's title (`$pos == 'Web'` where `web` is titled Web) or a word no
    /// option has never equals it. Only said of exact equality and membership: `BEGINSWITH`, `<` and
    /// a folding `==[c]` may mean a part or another spelling.
    private static func notAnOption(
        _ constant: PredicateValue, _ row: RowReading, _ comparison: Predicate.ConstantComparison
    ) -> String? {
        guard [.option, .options].contains(row.kind), !row.options.isEmpty, !comparison.folds,
            ["==", "!=", "IN", "CONTAINS"].contains(comparison.comparator),
            case .string(let text) = constant, !text.isEmpty, !row.options.contains(where: { $0.value == text })
        else { return nil }
        if let titled = row.options.first(where: { $0.title == text }) {
            return "$\(row.name) reads its options' values, and '\(text)' is the title of option '\(titled.value)': "
                + "write '\(titled.value)'"
        }
        let values = row.options.prefix(10).map { "'\($0.value)'" }.joined(separator: ", ")
        let more = row.options.count > 10 ? ", …" : ""
        return "'\(text)' is none of $\(row.name)'s option values (\(values)\(more)), so == never holds "
            + "and != always does"
    }

    /// Why `constant` can never be what `row` reads, or nil.
    private static func mismatch(_ constant: PredicateValue, _ row: RowReading) -> String? {
        let name = "$\(row.name)"
        switch (row.kind, constant) {
        case (_, .null): return nil
        case (.bool, .string(let text)):
            return "\(name) is \(article(row.type)) row, which reads true or false, never '\(text)'"
        case (.integer, .string(let text)), (.decimal, .string(let text)), (.duration, .string(let text)):
            return
                "\(name) is \(article(row.type)) row, which reads a number, never the text '\(text)': write it without quotes"
        case (.text, .number(let number)), (.option, .number(let number)), (.options, .number(let number)):
            let text = number == number.rounded() ? String(Int(number)) : String(number)
            return "\(name) is \(article(row.type)) row, which reads text, never the number \(text): write '\(text)'"
        case (.text, .bool), (.option, .bool), (.options, .bool):
            return "\(name) is \(article(row.type)) row, which reads text, never true or false"
        case (.date, .number), (.time, .number), (.dateTime, .number):
            return "\(name) is \(article(row.type)) row, which reads a date or time as text, never a number"
        case (.date, .string(let text)) where !text.isEmpty && LocalDate(iso: text) == nil:
            return "\(name) is \(article(row.type)) row: '\(text)' is not a date (write YYYY-MM-DD)"
        case (.time, .string(let text)) where !text.isEmpty && LocalTime(iso: text) == nil:
            return "\(name) is \(article(row.type)) row: '\(text)' is not a time of day (write HH:MM or HH:MM:SS)"
        default: return nil
        }
    }
}
