import Foundation

/// Reads a descriptor's `value`, `min`, `max` and `step` as the `FormValue` the row's type holds.
struct ValueDecoder {
    let log: ProblemLog
    let row: Row

    /// The default value: of the row's kind, and among the options for selectors.
    func value(_ node: DescriptorNode, path: String) -> FormValue? {
        let kind = row.type.valueKind
        switch kind {
        case .option:
            guard let text = scalar(node, path: path) else { return nil }
            guard row.options.contains(where: { $0.value == text }) else {
                log.add(
                    path,
                    "the value '\(text)' is not among the options (\(row.options.map(\.value).joined(separator: ", ")))",
                    at: node)
                return nil
            }
            return .option(text)
        case .options:
            let items: [DescriptorNode]
            if case .sequence(let list, _) = node { items = list } else { items = [node] }
            var chosen: [String] = []
            for item in items {
                guard let text = scalar(item, path: path) else { return nil }
                guard row.options.contains(where: { $0.value == text }) else {
                    log.add(path, "the value '\(text)' is not among the options", at: item)
                    return nil
                }
                chosen.append(text)
            }
            return .options(row.options.map(\.value).filter(chosen.contains))
        case .none, .file:
            log.add(path, "a \(row.type.rawValue) row has no value", at: node)
            return nil
        default:
            guard let text = scalar(node, path: path) else { return nil }
            guard let parsed = Self.parse(text, as: kind) else {
                log.add(path, "'\(text)' is not \(Self.expectation(kind))", at: node)
                return nil
            }
            return parsed
        }
    }

    /// A bound (`min`, `max`, `step`): of the row's kind for numbers, dates, times and durations.
    func bound(_ node: DescriptorNode, path: String) -> FormValue? {
        let kind = row.type.valueKind
        let boundKind: ValueKind
        switch kind {
        case .integer, .decimal, .date, .time, .dateTime, .duration: boundKind = kind
        case .text, .options: boundKind = .integer  // lengths and counts
        default:
            log.add(path, "a \(row.type.rawValue) row takes no bounds", at: node)
            return nil
        }
        guard let text = scalar(node, path: path) else { return nil }
        guard let parsed = Self.parse(text, as: boundKind) else {
            log.add(path, "'\(text)' is not \(Self.expectation(boundKind))", at: node)
            return nil
        }
        return parsed
    }

    private func scalar(_ node: DescriptorNode, path: String) -> String? {
        guard case .scalar(let text, _, _) = node else {
            log.add(path, "expected a single value, found \(node.kindName)", at: node)
            return nil
        }
        return text
    }

    /// Parses descriptor text as a value of `kind` (fixed locale: `.` is the decimal separator).
    static func parse(_ text: String, as kind: ValueKind) -> FormValue? {
        switch kind {
        case .text: return .text(text)
        case .integer: return Int(text).map(FormValue.integer)
        case .decimal: return decimal(text).map(FormValue.decimal)
        case .bool:
            switch text.lowercased() {
            case "true", "1", "on", "yes": return .bool(true)
            case "false", "0", "off", "no": return .bool(false)
            default: return nil
            }
        case .date: return LocalDate(iso: text).map(FormValue.date)
        case .time: return LocalTime(iso: text).map(FormValue.time)
        case .dateTime: return LocalDateTime(iso: text).map(FormValue.dateTime)
        case .duration: return Int(text).flatMap { $0 >= 0 ? .duration($0) : nil }
        case .option: return .option(text)
        case .options, .file, .none: return nil
        }
    }

    /// A decimal in the fixed `-123.45` / `1e3` form; never NaN or infinity.
    static func decimal(_ text: String) -> Decimal? {
        let allowed = text.allSatisfy { $0.isASCIIDigit || "+-.eE".contains($0) }
        guard allowed, !text.isEmpty, Double(text)?.isFinite == true else { return nil }
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }

    static func expectation(_ kind: ValueKind) -> String {
        switch kind {
        case .integer: "a whole number"
        case .decimal: "a number (use '.' for decimals)"
        case .bool: "true or false"
        case .date: "a date as YYYY-MM-DD"
        case .time: "a time as HH:MM or HH:MM:SS"
        case .dateTime: "a date and time as YYYY-MM-DDTHH:MM"
        case .duration: "a number of seconds"
        default: "a valid value"
        }
    }
}
