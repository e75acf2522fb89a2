import ArgumentParser

/// Resolves a setting from its flag, else its `FORMWRIGHT_*` variable, else its default, and
/// refuses a variable that does not parse, naming it.
struct EnvironmentSettings {
    let variables: [String: String]

    init(_ variables: [String: String]) { self.variables = variables }

    func value<T>(
        _ flag: T?, _ name: String, default fallback: T, parse: (String) throws -> T?
    ) throws -> T {
        if let flag { return flag }
        guard let text = variables[name], !text.isEmpty else { return fallback }
        guard let parsed = try parse(text) else {
            throw ValidationError("environment variable \(name)='\(text)' is not a valid value")
        }
        return parsed
    }
}

/// Byte counts written as `1048576`, `512k` or `10m` (binary units).
enum ByteSize {
    static func parse(_ text: String, option: String) throws -> Int {
        let lower = text.lowercased().trimmingSpaces()
        let multipliers: [Character: Int] = ["k": 1 << 10, "m": 1 << 20, "g": 1 << 30]
        var digits = Substring(lower)
        var multiplier = 1
        if let last = lower.last, let factor = multipliers[last] {
            multiplier = factor
            digits = digits.dropLast()
        }
        guard let number = Int(digits), number >= 0, number <= Int.max / multiplier else {
            throw ValidationError("\(option) '\(text)' is not a size: use bytes, or a number with k, m or g")
        }
        return number * multiplier
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
