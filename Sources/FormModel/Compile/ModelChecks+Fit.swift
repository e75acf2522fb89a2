import Foundation

/// Checks of a row's settings against its type: a setting its type cannot use, a bound that no value
/// can meet, an address a browser must not be sent to. Each would otherwise be found only when a
/// reader's submission fails, or never.
extension ModelChecks {
    /// The problems of `row`'s validators, bounds and addresses.
    static func fitProblems(of row: Row, at path: String) -> [(path: String, message: String)] {
        var problems: [(path: String, message: String)] = []
        let kind = row.type.valueKind
        let type = row.type.name
        let isText = kind == .text
        let orders = [.integer, .decimal, .date, .time, .dateTime, .duration].contains(kind)
        for (index, validator) in row.validators.enumerated() {
            let at = "\(path).validators[\(index)]"
            switch validator.kind {
            case .email, .url, .regex:
                if !isText {
                    problems.append(
                        (
                            at,
                            "\(ConstantComparisonChecks.article(validator.kindName)) validator checks text; \(ConstantComparisonChecks.article(type)) row holds none"
                        ))
                }
            case .minLength, .maxLength:
                if !isText && kind != .options {
                    problems.append(
                        (
                            at,
                            "\(ConstantComparisonChecks.article(validator.kindName)) validator counts characters or chosen options; \(ConstantComparisonChecks.article(type)) row has neither"
                        ))
                }
            case .min(let bound), .max(let bound):
                // On text, min and max are lengths (a whole number); elsewhere, values of the row's kind.
                let fits = isText ? bound.fits(.integer) : orders && bound.fits(kind)
                if !fits {
                    problems.append(
                        (
                            at,
                            "\(ConstantComparisonChecks.article(validator.kindName)) of '\(bound)' cannot bound \(ConstantComparisonChecks.article(type)) row"
                        ))
                }
            case .equalsRow, .predicate, .custom: break
            }
            if case .url(let schemes) = validator.kind {
                for scheme in schemes where unsafeSchemes.contains(scheme.lowercased()) {
                    problems.append(
                        (at + ".schemes", "'\(scheme):' URLs can run script in a browser; they cannot be allowed"))
                }
            }
        }
        // The bounds a value must lie between, from the row and its validators.
        let lows = ([row.min] + row.validators.map { if case .min(let v) = $0.kind { v } else { nil } }).compactMap {
            $0
        }
        let highs = ([row.max] + row.validators.map { if case .max(let v) = $0.kind { v } else { nil } }).compactMap {
            $0
        }
        for (key, bound) in [("min", row.min), ("max", row.max), ("step", row.step)] {
            guard let bound else { continue }
            if !orders || !(bound.fits(kind) || (key == "step" && isNumber(bound))) {
                problems.append(
                    (
                        "\(path).\(key)",
                        "\(key) applies to numbers, dates and times; \(ConstantComparisonChecks.article(type)) row has none"
                    ))
            } else if key == "step", isNumber(bound), !isPositive(bound) {
                problems.append(("\(path).step", "a step must be more than 0"))
            }
        }
        for low in lows {
            for high in highs where order(low, high) == .orderedDescending {
                problems.append((path, "min '\(low)' is above max '\(high)': no value can be valid"))
            }
        }
        if let value = row.value {
            for low in lows where order(value, low) == .orderedAscending {
                problems.append((path + ".value", "the value '\(value)' is below the min '\(low)'"))
            }
            for high in highs where order(value, high) == .orderedDescending {
                problems.append((path + ".value", "the value '\(value)' is above the max '\(high)'"))
            }
        }
        if row.maxLength != nil, !isText {
            problems.append(
                (
                    path + ".maxLength",
                    "maxLength counts characters; \(ConstantComparisonChecks.article(type)) row holds none"
                ))
        }
        let shortest = row.validators.compactMap { if case .minLength(let n) = $0.kind { n } else { nil } }.max()
        let longest = ([row.maxLength] + row.validators.map { if case .maxLength(let n) = $0.kind { n } else { nil } })
            .compactMap { $0 }.min()
        if let shortest, let longest, shortest > longest {
            problems.append((path, "minLength \(shortest) is over maxLength \(longest): no value can be valid"))
        }
        if let url = row.url, let problem = linkProblem(url) { problems.append((path + ".url", problem)) }
        return problems
    }

    /// Schemes whose URLs a browser may run as script.
    static let unsafeSchemes: Set<String> = ["javascript", "vbscript", "data"]

    /// Why a browser must not be sent to `url` (a link, a redirect), or nil: only a path on this site
    /// (`/…`, not `//…`) or an absolute `http`, `https`, `mailto` or `tel` URL, without spaces or controls.
    static func linkProblem(_ url: String) -> String? {
        if url.isEmpty { return "an address cannot be empty" }
        if url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F || $0 == "\\" }) {
            return "'\(url)' holds a space, a control character or a backslash"
        }
        if url.hasPrefix("/") { return url.hasPrefix("//") ? "'\(url)' names another host: write https://…" : nil }
        guard let colon = url.firstIndex(of: ":") else {
            return "'\(url)' is neither a path on this site (/…) nor an absolute URL"
        }
        let scheme = url[..<colon].lowercased()
        guard ["http", "https", "mailto", "tel"].contains(scheme) else {
            return "'\(scheme):' addresses are not allowed here: use a path (/…), or an http, https, mailto or tel URL"
        }
        return nil
    }

    private static func isNumber(_ value: FormValue) -> Bool {
        switch value {
        case .integer, .decimal, .duration: true
        default: false
        }
    }

    private static func isPositive(_ value: FormValue) -> Bool {
        switch value {
        case .integer(let n), .duration(let n): n > 0
        case .decimal(let n): n > 0
        default: true
        }
    }

    /// How `a` and `b` compare when both are numbers, or both dates, times or date-times; nil otherwise.
    static func order(_ a: FormValue, _ b: FormValue) -> ComparisonResult? {
        func compare<T: Comparable>(_ x: T, _ y: T) -> ComparisonResult {
            x < y ? .orderedAscending : x > y ? .orderedDescending : .orderedSame
        }
        switch (a, b) {
        case (.integer(let x), .integer(let y)), (.duration(let x), .duration(let y)): return compare(x, y)
        case (.decimal(let x), .decimal(let y)): return compare(x, y)
        case (.integer(let x), .decimal(let y)): return compare(Decimal(x), y)
        case (.decimal(let x), .integer(let y)): return compare(x, Decimal(y))
        case (.date(let x), .date(let y)): return compare(x, y)
        case (.time(let x), .time(let y)): return compare(x, y)
        case (.dateTime(let x), .dateTime(let y)): return compare(x, y)
        default: return nil
        }
    }
}
