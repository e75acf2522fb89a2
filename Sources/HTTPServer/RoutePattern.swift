/// A parsed route path such as `/forms/{id}`, `/forms/{id}.json` or `/static/{path...}`.
struct RoutePattern: Hashable, Sendable, CustomStringConvertible {
    /// One `/`-separated part of a pattern.
    enum Segment: Hashable, Sendable {
        /// Matches exactly this text.
        case literal(String)
        /// Matches any non-empty segment that starts with `prefix` and ends with `suffix` (UTF-8 bytes),
        /// and captures what is between them as `name`.
        case parameter(name: String, prefix: [UInt8], suffix: [UInt8])
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
    /// Whether the last segment takes the rest of the path.
    let isOpenEnded: Bool

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
                name: name, prefix: Array(part[..<open].utf8), suffix: Array(part[part.index(after: close)...].utf8))
        }
        if case .rest = segments.last { isOpenEnded = true } else { isOpenEnded = false }
    }

    /// The names its parameters capture, in order.
    var parameterNames: [String] {
        segments.compactMap { segment in
            switch segment {
            case .literal: nil
            case .parameter(let name, _, _), .rest(let name): name
            }
        }
    }

    /// The path segments that capture `value` as every parameter: what `/forms/{id}.json` is for `event`.
    func segments(filledWith value: String) -> [String] {
        segments.map { segment in
            switch segment {
            case .literal(let text): text
            case .parameter(_, let prefix, let suffix):
                String(decoding: prefix, as: UTF8.self) + value + String(decoding: suffix, as: UTF8.self)
            case .rest: value
            }
        }
    }

    /// The captured parameters when `path` matches, else nil.
    ///
    /// Compares UTF-8 bytes, not characters: a route is tried for every request, and grapheme
    /// breaking is needless for segments that were decoded from bytes.
    func match(_ path: [String]) -> RouteParameters? {
        guard path.count == segments.count || (isOpenEnded && path.count >= segments.count) else { return nil }
        var captured = RouteParameters()
        for index in segments.indices {
            switch segments[index] {
            case .literal(let text):
                guard path[index] == text else { return nil }
            case .parameter(let name, let prefix, let suffix):
                guard let value = Self.between(prefix, suffix, in: path[index]) else { return nil }
                captured.append(name, value)
            case .rest(let name):
                captured.append(name, index == path.count - 1 ? path[index] : path[index...].joined(separator: "/"))
            }
        }
        return captured
    }

    /// What `segment` holds between `prefix` and `suffix`, when it starts and ends with them and has
    /// something in between.
    private static func between(_ prefix: [UInt8], _ suffix: [UInt8], in segment: String) -> String? {
        // A bare `{name}` takes the whole segment: no bytes to compare, no copy.
        if prefix.isEmpty && suffix.isEmpty { return segment.isEmpty ? nil : segment }
        var segment = segment
        return segment.withUTF8 { bytes in
            guard bytes.count > prefix.count + suffix.count, bytes.prefix(prefix.count).elementsEqual(prefix),
                bytes.suffix(suffix.count).elementsEqual(suffix)
            else { return nil }
            return String(decoding: bytes[prefix.count..<(bytes.count - suffix.count)], as: UTF8.self)
        }
    }

    /// Orders patterns from most to least specific, segment by segment.
    static func moreSpecific(_ a: RoutePattern, _ b: RoutePattern) -> Bool {
        for (x, y) in zip(a.segments, b.segments) where x.rank != y.rank { return x.rank < y.rank }
        return a.segments.count > b.segments.count
    }
}

/// The values a route's `{name}` segments captured, looked up by name.
///
/// A route has a parameter or two, so they are a short list searched in order: no table is hashed,
/// and the first pair is stored inline, so most requests allocate nothing for it.
public struct RouteParameters: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    private var first: (name: String, value: String)?
    private var more: [(name: String, value: String)] = []

    /// No parameters.
    public init() {}

    /// Parameters from a literal, in the literal's order: `["id": "event"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { append(name, value) }
    }

    /// Whether the route captured nothing.
    public var isEmpty: Bool { first == nil }

    /// The value captured as `name`, if the route has such a segment.
    public subscript(name: String) -> String? {
        if let first, first.name == name { return first.value }
        return more.first { $0.name == name }?.value
    }

    mutating func append(_ name: String, _ value: String) {
        if first == nil { first = (name, value) } else { more.append((name: name, value: value)) }
    }

    public static func == (lhs: RouteParameters, rhs: RouteParameters) -> Bool {
        lhs.first?.name == rhs.first?.name && lhs.first?.value == rhs.first?.value
            && lhs.more.elementsEqual(rhs.more) { $0.name == $1.name && $0.value == $1.value }
    }
}
