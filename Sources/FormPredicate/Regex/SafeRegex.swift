/// A regular expression that runs in time linear in the input: a Thompson NFA simulated breadth-first.
///
/// It accepts the ICU subset forms use: literals and escapes, `.`, classes `[...]` with ranges and negation,
/// `\d \w \s \D \W \S`, `\p{L}`-style properties, groups `( )` `(?: )` `(?<name> )`, alternation, `* + ? {m,n}`
/// (lazy forms behave as greedy), anchors `^ $ \A \z \b \B`. Backreferences, lookaround and inline flags
/// are compile errors, because they cannot be matched without backtracking.
///
/// ```swift
/// let zip = try SafeRegex("[0-9]{5}")
/// zip.matches("12345")          // true: the whole string must match
/// zip.containsMatch(in: "a 12345 b")  // true
/// ```
public struct SafeRegex: Sendable, CustomStringConvertible {
    /// Why a pattern does not compile; `offset` is the 1-based position in the pattern.
    public struct CompileError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong.
        public let message: String
        /// The 1-based position (in Unicode scalars) in the pattern.
        public let offset: Int

        /// Creates an error.
        public init(message: String, offset: Int) {
            self.message = message
            self.offset = offset
        }

        /// `backreferences are not supported at position 3`.
        public var description: String { "\(message) at position \(offset)" }
    }

    /// The most instructions a pattern may compile to: larger ones are refused with a message naming it.
    public static var maximumProgramSize: Int { RegexCompiler.maximumProgramSize }

    /// The source pattern.
    public let pattern: String
    /// Whether letters match regardless of case.
    public let isCaseInsensitive: Bool
    private let program: [RegexInstruction]
    private let classes: [RegexClass]

    /// Compiles `pattern`, or throws naming what is unsupported or malformed and where.
    public init(_ pattern: String, caseInsensitive: Bool = false) throws(CompileError) {
        let node = try RegexParser.parse(pattern)
        var compiler = RegexCompiler(caseInsensitive: caseInsensitive)
        try compiler.emit(node)
        compiler.program.append(.match)
        guard compiler.program.count <= RegexCompiler.maximumProgramSize else { throw RegexCompiler.tooLarge }
        self.pattern = pattern
        isCaseInsensitive = caseInsensitive
        program = compiler.program
        classes = compiler.classes
    }

    /// `/pattern/` with `i` when case-insensitive.
    public var description: String { "/\(pattern)/\(isCaseInsensitive ? "i" : "")" }

    /// Whether the whole of `text` matches, as NSPredicate's MATCHES requires.
    public func matches(_ text: String) -> Bool {
        (try? run(Array(text.unicodeScalars), wholeString: true, budget: nil)) ?? false
    }

    /// Whether the whole of `text` matches, taking a step from `budget` for each thread advanced over each
    /// character; throws once the budget is spent, so a long text cannot hold a thread past it.
    public func matches(_ text: String, budget: EvaluationBudget) throws(EvaluationBudget.Spent) -> Bool {
        try run(Array(text.unicodeScalars), wholeString: true, budget: budget)
    }

    /// Whether some part of `text` matches.
    public func containsMatch(in text: String) -> Bool {
        (try? run(Array(text.unicodeScalars), wholeString: false, budget: nil)) ?? false
    }

    // MARK: - Simulation

    /// The simulation; `budget` (nil: unbounded) is charged once per character for the threads that moved.
    private func run(
        _ input: [Unicode.Scalar], wholeString: Bool, budget: EvaluationBudget?
    ) throws(EvaluationBudget.Spent) -> Bool {
        var current = ThreadList(capacity: program.count)
        var next = ThreadList(capacity: program.count)
        var stack: [Int] = []
        var tested = [Int8](repeating: -1, count: classes.count)
        addThread(0, at: 0, in: input, to: &current, stack: &stack)
        for position in 0...input.count {
            if current.containsMatch(program), !wholeString || position == input.count { return true }
            if position == input.count { break }
            if current.isEmpty && wholeString { return false }
            try budget?.spend(current.count + 1)
            let scalar = input[position]
            // A class is tested once per character, however many threads ask (`\w` in `(\w+){1,250}`),
            // and a case-insensitive character is folded once.
            let folded = isCaseInsensitive ? RegexCompiler.fold(scalar) : scalar
            for index in tested.indices { tested[index] = -1 }
            for pc in current.members {
                if step(program[pc], scalar, folded: folded, tested: &tested) {
                    addThread(pc + 1, at: position + 1, in: input, to: &next, stack: &stack)
                }
            }
            if !wholeString { addThread(0, at: position + 1, in: input, to: &next, stack: &stack) }
            swap(&current, &next)
            next.clear()
        }
        return false
    }

    /// Whether `instruction` accepts `scalar`; `tested` holds the classes' answers for it so far (-1: not asked).
    private func step(
        _ instruction: RegexInstruction, _ scalar: Unicode.Scalar, folded: Unicode.Scalar, tested: inout [Int8]
    ) -> Bool {
        switch instruction {
        case .scalar(let expected):
            return expected == scalar || folded == expected
        case .any:
            switch scalar {
            case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}": return false
            default: return true
            }
        case .set(let index):
            if tested[index] < 0 { tested[index] = contains(classes[index], scalar) ? 1 : 0 }
            return tested[index] == 1
        default:
            return false
        }
    }

    /// Whether `set` holds `scalar`, or under `[c]` one of its other cases, so [a-z] accepts "Q".
    private func contains(_ set: RegexClass, _ scalar: Unicode.Scalar) -> Bool {
        if set.contains(scalar) { return true }
        guard isCaseInsensitive else { return false }
        let variants = [scalar.properties.lowercaseMapping, scalar.properties.uppercaseMapping]
        return variants.contains { variant in
            variant.unicodeScalars.count == 1 && set.contains(variant.unicodeScalars.first ?? scalar)
        }
    }

    /// Adds `pc` and everything reachable from it without consuming input (an iterative epsilon closure).
    private func addThread(
        _ start: Int, at position: Int, in input: [Unicode.Scalar], to list: inout ThreadList, stack: inout [Int]
    ) {
        stack.append(start)
        while let pc = stack.popLast() {
            guard list.insert(pc) else { continue }
            switch program[pc] {
            case .jump(let target): stack.append(target)
            case .split(let first, let second):
                stack.append(second)
                stack.append(first)
            case .assert(let assertion):
                if holds(assertion, at: position, in: input) { stack.append(pc + 1) }
            default: break
            }
        }
    }

    private func holds(_ assertion: RegexAssertion, at position: Int, in input: [Unicode.Scalar]) -> Bool {
        switch assertion {
        case .start: return position == 0
        case .end: return position == input.count
        case .wordBoundary, .notWordBoundary:
            let before = position > 0 && RegexProperty.word.contains(input[position - 1])
            let after = position < input.count && RegexProperty.word.contains(input[position])
            return (before != after) == (assertion == .wordBoundary)
        }
    }
}

/// A sparse set of program counters: O(1) insert, membership and clear, in insertion order.
private struct ThreadList {
    private var dense: [Int]
    private var sparse: [Int]

    init(capacity: Int) {
        dense = Array(repeating: 0, count: capacity)
        sparse = Array(repeating: 0, count: capacity)
    }

    var isEmpty: Bool { count == 0 }
    private(set) var count = 0
    var members: ArraySlice<Int> { dense[0..<count] }

    mutating func insert(_ pc: Int) -> Bool {
        let slot = sparse[pc]
        if slot < count && dense[slot] == pc { return false }
        sparse[pc] = count
        dense[count] = pc
        count += 1
        return true
    }

    mutating func clear() { count = 0 }

    func containsMatch(_ program: [RegexInstruction]) -> Bool {
        members.contains { if case .match = program[$0] { true } else { false } }
    }
}
