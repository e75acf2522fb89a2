/// Parses the ICU regex subset forms use into a `RegexNode`, rejecting what a linear-time engine cannot do.
struct RegexParser {
    typealias Failure = SafeRegex.CompileError

    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var depth = 0
    private static let maximumDepth = 100
    private static let maximumCount = 1000

    static func parse(_ pattern: String) throws(Failure) -> RegexNode {
        var parser = RegexParser(scalars: Array(pattern.unicodeScalars))
        let node = try parser.parseAlternation()
        if parser.position < parser.scalars.count {
            throw parser.error("unmatched ')'")
        }
        return node
    }

    private init(scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    private var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private func error(_ message: String, at index: Int? = nil) -> Failure {
        Failure(message: message, offset: (index ?? position) + 1)
    }

    private mutating func parseAlternation() throws(Failure) -> RegexNode {
        var branches = [try parseConcatenation()]
        while peek == "|" {
            position += 1
            branches.append(try parseConcatenation())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func parseConcatenation() throws(Failure) -> RegexNode {
        var items: [RegexNode] = []
        while let scalar = peek, scalar != "|", scalar != ")" {
            let atom = try parseAtom()
            items.append(try parseQuantifiers(on: atom))
        }
        return items.count == 1 ? items[0] : (items.isEmpty ? .empty : .concatenation(items))
    }

    private mutating func parseQuantifiers(on atom: RegexNode) throws(Failure) -> RegexNode {
        var node = atom
        while let scalar = peek {
            let start = position
            let bounds: (Int, Int?)
            switch scalar {
            case "*": bounds = (0, nil)
            case "+": bounds = (1, nil)
            case "?": bounds = (0, 1)
            case "{":
                guard let counted = try parseCount() else { return node }
                bounds = counted
            default: return node
            }
            if scalar != "{" { position += 1 }
            if case .assertion = node { throw error("nothing to repeat", at: start) }
            if case .empty = node { throw error("nothing to repeat", at: start) }
            if peek == "?" {
                position += 1  // Lazy: the same set of whole-string matches as greedy.
            } else if peek == "+" {
                throw error("possessive quantifiers are not supported")
            }
            node = .repetition(node, minimum: bounds.0, maximum: bounds.1)
        }
        return node
    }

    /// `{n}`, `{n,}` or `{n,m}`.
    private mutating func parseCount() throws(Failure) -> (Int, Int?)? {
        let start = position
        position += 1
        func number(_ parser: inout RegexParser) -> Int? {
            var value: Int?
            while let scalar = parser.peek, ("0"..."9").contains(scalar) {
                value = min((value ?? 0) * 10 + Int(scalar.value - 48), 1_000_000)
                parser.position += 1
            }
            return value
        }
        guard let low = number(&self) else { throw error("malformed repetition count", at: start) }
        var high: Int? = low
        if peek == "," {
            position += 1
            high = number(&self)
        }
        guard peek == "}" else { throw error("malformed repetition count", at: start) }
        position += 1
        if let high, high < low { throw error("repetition count {\(low),\(high)} has max below min", at: start) }
        if low > Self.maximumCount || (high ?? 0) > Self.maximumCount {
            throw error("repetition count above \(Self.maximumCount)", at: start)
        }
        return (low, high)
    }

    private mutating func parseAtom() throws(Failure) -> RegexNode {
        let start = position
        let scalar = scalars[position]
        position += 1
        switch scalar {
        case "(":
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maximumDepth else { throw error("groups nested too deeply", at: start) }
            if peek == "?" {
                position += 1
                switch peek {
                case ":": position += 1
                case "<"
                where position + 1 < scalars.count && scalars[position + 1] != "=" && scalars[position + 1] != "!":
                    // A named group is matched like any group; names are not used by a yes/no test.
                    guard let close = scalars[position...].firstIndex(of: ">") else {
                        throw error("unterminated group name", at: start)
                    }
                    position = close + 1
                case "=", "!", "<": throw error("lookaround assertions are not supported", at: start)
                default: throw error("inline flags and other (? groups are not supported", at: start)
                }
            }
            let inner = try parseAlternation()
            guard peek == ")" else { throw error("missing ')' for the group at \(start + 1)", at: start) }
            position += 1
            return inner
        case ")": throw error("unmatched ')'", at: start)
        case "*", "+", "?": throw error("nothing to repeat", at: start)
        case "{":
            position = start
            if (try? parseCount()) != nil { throw error("nothing to repeat", at: start) }
            position = start + 1
            throw error("'{' must be escaped when it is not a repetition count", at: start)
        case ".": return .any
        case "^": return .assertion(.start)
        case "$": return .assertion(.end)
        case "[": return .set(try parseClass(start: start))
        case "\\": return try parseEscape(inClass: false).node
        default: return .scalar(scalar)
        }
    }

    /// An escape after `\`: a literal scalar, a class, an assertion, or an unsupported feature.
    private mutating func parseEscape(inClass: Bool) throws(Failure) -> (node: RegexNode, scalar: Unicode.Scalar?) {
        let start = position - 1
        guard let scalar = peek else { throw error("pattern ends with '\\'", at: start) }
        position += 1
        func literal(_ value: Unicode.Scalar) -> (RegexNode, Unicode.Scalar?) { (.scalar(value), value) }
        func property(_ property: RegexProperty, negated: Bool) -> (RegexNode, Unicode.Scalar?) {
            (.set(RegexClass(items: [.property(property, negated: negated)])), nil)
        }
        switch scalar {
        case "d": return property(.digit, negated: false)
        case "D": return property(.digit, negated: true)
        case "w": return property(.word, negated: false)
        case "W": return property(.word, negated: true)
        case "s": return property(.space, negated: false)
        case "S": return property(.space, negated: true)
        case "p", "P":
            guard peek == "{", let close = scalars[position...].firstIndex(of: "}") else {
                throw error("expected \\p{Name}", at: start)
            }
            let name = String(String.UnicodeScalarView(scalars[(position + 1)..<close]))
            guard let named = RegexProperty.named(name) else {
                throw error("unsupported property \\p{\(name)}", at: start)
            }
            position = close + 1
            return property(named, negated: scalar == "P")
        case "n": return literal("\n")
        case "t": return literal("\t")
        case "r": return literal("\r")
        case "f": return literal("\u{0C}")
        case "a": return literal("\u{07}")
        case "e": return literal("\u{1B}")
        case "x", "u":
            var digits = scalar == "x" ? 2 : 4
            var braced = false
            if scalar == "x", peek == "{" {
                braced = true
                digits = 8
                position += 1
            }
            var value: UInt32 = 0
            var count = 0
            while count < digits, let next = peek, let digit = Scanner.digitValue(next, radix: 16) {
                value = value &* 16 &+ UInt32(digit)
                count += 1
                position += 1
            }
            if braced {
                guard peek == "}" else { throw error("malformed \\x{...} escape", at: start) }
                position += 1
            }
            guard count > 0, braced || count == digits, let decoded = Unicode.Scalar(value) else {
                throw error("malformed \\\(scalar) escape", at: start)
            }
            return literal(decoded)
        case "b" where !inClass: return (.assertion(.wordBoundary), nil)
        case "B" where !inClass: return (.assertion(.notWordBoundary), nil)
        case "A" where !inClass: return (.assertion(.start), nil)
        case "z", "Z": if !inClass { return (.assertion(.end), nil) }
        case "1"..."9": throw error("backreferences are not supported", at: start)
        case "k": throw error("backreferences are not supported", at: start)
        case "0":
            var value: UInt32 = 0
            var count = 0
            while count < 3, let next = peek, let digit = Scanner.digitValue(next, radix: 8) {
                value = value * 8 + UInt32(digit)
                count += 1
                position += 1
            }
            return literal(Unicode.Scalar(value) ?? "\0")
        default: break
        }
        if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
            throw error("unsupported escape '\\\(scalar)'", at: start)
        }
        return literal(scalar)
    }

    /// `[...]`, after the `[`: ranges, negation and class escapes; set operations are not supported.
    private mutating func parseClass(start: Int) throws(Failure) -> RegexClass {
        var result = RegexClass()
        if peek == "^" {
            result.negated = true
            position += 1
        }
        var first = true
        while true {
            guard let scalar = peek else { throw error("missing ']' for the class at \(start + 1)", at: start) }
            if scalar == "]" && !first {
                position += 1
                return result
            }
            first = false
            if scalar == "[" { throw error("nested classes and set operations are not supported") }
            let low: Unicode.Scalar
            position += 1
            if scalar == "\\" {
                let escaped = try parseEscape(inClass: true)
                guard let single = escaped.scalar else {
                    if case .set(let inner) = escaped.node { result.items += inner.items }
                    continue
                }
                low = single
            } else {
                low = scalar
            }
            // `a-z` is a range unless the `-` is last (`[a-]`).
            if peek == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
                position += 1
                var high = scalars[position]
                position += 1
                if high == "\\" {
                    guard let single = try parseEscape(inClass: true).scalar else {
                        throw error("a range cannot end in a class escape")
                    }
                    high = single
                }
                guard low.value <= high.value else { throw error("range out of order in class", at: start) }
                result.items.append(.range(low.value, high.value))
            } else {
                result.items.append(.range(low.value, low.value))
            }
        }
    }
}
