import FormModel

/// A descriptor value as the texts a control shows and posts back (`PageState.values`' shape).
enum ValueTexts {
    /// The texts for `value`: `["on"]` for true, the option values of a multiple selection, `H:MM:SS`
    /// for a duration, ISO-8601 for dates and times (a date-time as the form zone's wall-clock reading,
    /// which is what `datetime-local` holds), nothing for files (a file input never has a value).
    static func texts(_ value: FormValue?) -> [String] {
        switch value {
        case nil, .bool(false), .file: []
        case .bool(true): ["on"]
        case .options(let values): values
        case .duration(let seconds): [duration(seconds)]
        case .some(let value): [value.inputText]
        }
    }

    /// The text of one multivalued item for `value`: its control posts one text, and a boolean item's is
    /// its choice, `true` or `false` (blank there is no item).
    static func itemText(_ value: FormValue?) -> String {
        if case .bool(let flag) = value { return flag ? "true" : "false" }
        return texts(value).first ?? ""
    }

    /// `H:MM:SS`, the format the count-down input's `pattern` asks for.
    static func duration(_ seconds: Int) -> String {
        let seconds = max(0, seconds)
        let minutes = seconds / 60 % 60
        let rest = seconds % 60
        return "\(seconds / 3600):\(minutes < 10 ? "0" : "")\(minutes):\(rest < 10 ? "0" : "")\(rest)"
    }

    /// Whether a posted check-box text means checked.
    static func isChecked(_ texts: [String]) -> Bool {
        guard let first = texts.first else { return false }
        return !["", "false", "0", "off", "no"].contains(first.lowercased())
    }

    /// The text of a bound (`min`, `max`, `step`) as an attribute wants it.
    static func bound(_ value: FormValue?) -> String? {
        switch value {
        case nil, .bool, .options, .file, .duration: nil
        case .some(let value): value.inputText
        }
    }
}
