/// A parsed route path such as `/forms/{id}`, `/forms/{id}.json` or `/static/{path...}`.
struct RoutePattern: Hashable, Sendable, CustomStringConvertible {
    /// One `/`-separated part of a pattern.
    enum Segment: Hashable, Sendable {
        /// Matches exactly this text.
        case literal(String)
        /// Matches any non-empty segment that starts with `prefix` and ends with `suffix`, and captures
        /// what is between them as `name`.
        case parameter(name: String, prefix: String, suffix: String)
        /// Matches the rest of the path (one segment or more) and captures it, `/`-joined, as `name`.
        case rest(name: String)

        /// Lower ranks are more specific; the most specific matching route wins.
        var rank: Int {
            switch self {
            case .literal: 0
            case .parameter(_, let prefix, let suffix): prefix.isEmpty && suffix.isEmpty ? 2 : 1
            case .rest: 3
            }
        }
    }

    let segments: [Segment]
    let description: String

    /// Parses a pattern; a malformed one is a programming error found when routes are built.
    init(_ text: String) {
        precondition(text.hasPrefix("/"), "route pattern '\(text)' must start with '/'")
        description = text
        let parts = text.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        segments = parts.enumerated().map { index, part in
            guard let open = part.firstIndex(of: "{") else {
                precondition(!part.contains("}"), "route pattern '\(text)': unbalanced '}'")
                return .literal(part)
            }
            guard let close = part.lastIndex(of: "}"), open < close else {
                preconditionFailure("route pattern '\(text)': unbalanced '{'")
            }
            let name = String(part[part.index(after: open)..<close])
            precondition(!name.isEmpty, "route pattern '\(text)': empty parameter name")
            if name.hasSuffix("...") {
                precondition(
                    index == parts.count - 1 && open == part.startIndex && close == part.index(before: part.endIndex),
                    "route pattern '\(text)': '{\(name)}' must be the whole last segment")
                return .rest(name: String(name.dropLast(3)))
            }
            return .parameter(
                name: name, prefix: String(part[..<open]), suffix: String(part[part.index(after: close)...]))
        }
    }

    /// The captured parameters when `path` matches, else nil.
    func match(_ path: [String]) -> [String: String]? {
        var captured: [String: String] = [:]
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .literal(let text):
                guard index < path.count, path[index] == text else { return nil }
            case .parameter(let name, let prefix, let suffix):
                guard index < path.count else { return nil }
                let value = path[index]
                guard value.count > prefix.count + suffix.count, value.hasPrefix(prefix), value.hasSuffix(suffix)
                else { return nil }
                captured[name] = String(value.dropFirst(prefix.count).dropLast(suffix.count))
            case .rest(let name):
                guard index < path.count else { return nil }
                captured[name] = path[index...].joined(separator: "/")
                return captured
            }
        }
        return path.count == segments.count ? captured : nil
    }

    /// Orders patterns from most to least specific, segment by segment.
    static func moreSpecific(_ a: RoutePattern, _ b: RoutePattern) -> Bool {
        for (x, y) in zip(a.segments, b.segments) where x.rank != y.rank { return x.rank < y.rank }
        return a.segments.count > b.segments.count
    }
}
