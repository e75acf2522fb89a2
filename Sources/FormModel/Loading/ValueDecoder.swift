import Foundation

/// Reads a descriptor's `value`, `min`, `max` and `step` as the `FormValue` the row's type holds.
struct ValueDecoder {
    let log: ProblemLog
    let row: Row
    /// The form's time zone, which date-times are read in.
    let zone: TimeZone

    /// The default value: of the row's kind, and among the options for selectors.
    func value(_ node: DescriptorNode, path: String) -> FormValue? {
        let kind = row.type.valueKind
        switch kind {
        case .option:
            guard let text = scalar(node, path: path) else { return nil }
            // A source's options are not known at load: its default is taken as written.
            guard row.optionsFrom != nil || row.options.contains(where: { $0.value == text }) else {
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
            log.add(path, "a \(row.type.name) row has no value", at: node)
            return nil
        default:
            guard let text = scalar(node, path: path) else { return nil }
            return typed(text, as: kind, node: node, path: path)
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
            log.add(path, "a \(row.type.name) row takes no bounds", at: node)
            return nil
        }
        guard let text = scalar(node, path: path) else { return nil }
        return typed(text, as: boundKind, node: node, path: path)
    }

    /// `text` as a value of `kind`, or nil with the problem logged.
    private func typed(_ text: String, as kind: ValueKind, node: DescriptorNode, path: String) -> FormValue? {
        // A number written as text (`max: "100"`) is refused rather than converted: the descriptor says
        // text where a number belongs. Dates and times have no JSON type of their own, so they are text.
        if case .scalar(_, false, _) = node, [.integer, .decimal, .duration].contains(kind),
            Self.parse(text, as: kind) != nil
        {
            let key = path.split(separator: ".").last.map(String.init) ?? path
            log.add(path, "\(key) must be a number, not the text \"\(text)\": write it without quotes", at: node)
            return nil
        }
        if kind == .dateTime {
            // As a submission is read (FormEngine's `ZoneConverter`): an offset names an instant, a bare
            // reading is the form zone's wall-clock time, the earlier one when the clocks show it twice.
            switch OffsetDateTime.read(text, offsetAt: zone.offset(at:)) {
            case .instant(let value): return .dateTime(value)
            case .skipped:
                log.add(path, "'\(text)' does not exist in \(zone.identifier): the clocks skip it", at: node)
                return nil
            case .malformed: break
            }
        } else if let parsed = Self.parse(text, as: kind) {
            return parsed
        }
        log.add(path, "'\(text)' is not \(Self.expectation(kind))", at: node)
        return nil
    }

    private func scalar(_ node: DescriptorNode, path: String) -> String? {
        guard case .scalar(let text, _, _) = node else {
            log.add(path, "expected a single value, found \(node.kindName)", at: node)
            return nil
        }
        return text
    }

    /// Parses descriptor text as a value of `kind` (fixed locale: `.` is the decimal separator); date-times
    /// need the form's zone, and are read by `typed`.
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
        case .duration: return Int(text).flatMap { $0 >= 0 ? .duration($0) : nil }
        case .option: return .option(text)
        case .dateTime, .options, .file, .none: return nil
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
        case .dateTime: "a date and time as YYYY-MM-DDTHH:MM, with an offset (Z, +01:00) or in the form's time zone"
        case .duration: "a number of seconds"
        default: "a valid value"
        }
    }
}
