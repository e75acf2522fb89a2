import ArgumentParser
import FormModel

/// Resolves a setting from its flag, else its `FORMWRIGHT_*` variable, else its default, and
/// refuses a variable that does not parse, naming it.
struct EnvironmentSettings {
    let variables: [String: String]

    init(_ variables: [String: String]) { self.variables = variables }

    /// The variables `serve` (and `probe`) read.
    static let known: Set<String> = [
        "FORMWRIGHT_HOST", "FORMWRIGHT_PORT", "FORMWRIGHT_FORMS", "FORMWRIGHT_PUBLIC", "FORMWRIGHT_THREADS",
        "FORMWRIGHT_MAX_BODY", "FORMWRIGHT_CONNECTION_LIMIT", "FORMWRIGHT_PER_IP_LIMIT", "FORMWRIGHT_TIMEOUT",
        "FORMWRIGHT_LOG_LEVEL", "FORMWRIGHT_ACCESS_LOG", "FORMWRIGHT_EXPLAIN", "FORMWRIGHT_MAX_FILE",
        "FORMWRIGHT_SECURE_COOKIES", "FORMWRIGHT_SECRET", "FORMWRIGHT_SUBMISSIONS", "FORMWRIGHT_STORE",
        "FORMWRIGHT_MAX_HEADER", "FORMWRIGHT_SMTP", "FORMWRIGHT_MAIL_FROM", "FORMWRIGHT_DELIVERY_ATTEMPTS",
        "FORMWRIGHT_DELIVERY_BACKOFF", "FORMWRIGHT_DELIVERY_MAX_DELAY",
    ]

    /// Variables of the repository's own test scripts (Tests/Browser, Tests/Container, the Makefile),
    /// whose environment reaches the servers they start: theirs, not misspellings of the server's.
    static let scripts: Set<String> = [
        "FORMWRIGHT_BIN", "FORMWRIGHT_ARGS", "FORMWRIGHT_BROWSER_PUBLIC", "FORMWRIGHT_BROWSER_DARK",
        "FORMWRIGHT_CONTAINER_CACHE", "FORMWRIGHT_LOCK_WAIT",
    ]

    /// The shortest `FORMWRIGHT_SECRET` taken without a warning: HMAC-SHA256's output size.
    static let minimumSecretBytes = 32

    /// A warning for each `FORMWRIGHT_*` variable nothing reads: a misspelt `FORMWRIGHT_PROT` would
    /// otherwise leave the default in force without a word. It names the known one within three edits,
    /// or lists them all (a far one, `FORMWRIGHT_DEBUG` → `FORMWRIGHT_FORMS`, would mislead).
    func unknownVariableWarnings() -> [String] {
        variables.keys.filter { $0.hasPrefix("FORMWRIGHT_") && !Self.known.contains($0) && !Self.scripts.contains($0) }
            .sorted().map { name in
                let hint =
                    closestName(to: name, among: Self.known, within: 3).map { "did you mean \($0)?" }
                    ?? "formwright reads \(Self.known.sorted().joined(separator: ", "))"
                return "environment variable \(name) is not one formwright reads, so it is ignored (\(hint))"
            }
    }

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
    /// `text` as a byte count; when `refusingZeroAs` names what a limit of 0 would refuse, 0 is refused.
    static func parse(_ text: String, option: String, refusingZeroAs refused: String? = nil) throws -> Int {
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
        if number == 0, let refused {
            throw ValidationError("\(option) '\(text)' would refuse \(refused): give a size of at least 1, such as 1m")
        }
        return number * multiplier
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
