/// One step of the NFA program.
enum RegexInstruction: Sendable {
    case scalar(Unicode.Scalar)
    case any
    case set(Int)
    case split(Int, Int)
    case jump(Int)
    case assert(RegexAssertion)
    case match
}

/// Lowers a `RegexNode` to `RegexInstruction`s, expanding counted repetition within a size budget.
struct RegexCompiler {
    /// Bounds memory and the work per input character, which grows with the program: `(\w+\s?){1,500}`
    /// expands to 3,500 instructions and `a{1000}{1000}` to a million. A form's patterns are checked at
    /// load, so a pattern over it is refused before anything is served (as RE2 bounds its programs).
    static let maximumProgramSize = 2_000

    let caseInsensitive: Bool
    var program: [RegexInstruction] = []
    var classes: [RegexClass] = []

    init(caseInsensitive: Bool) {
        self.caseInsensitive = caseInsensitive
    }

    /// The simple lowercase of a scalar, used for case-insensitive literals.
    static func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        return lower.count == 1 ? lower.first ?? scalar : scalar
    }

    /// The error for a program over `maximumProgramSize`.
    static let tooLarge = SafeRegex.CompileError(
        message:
            "pattern too large: over \(maximumProgramSize) instructions once its counted repetitions are expanded"
            + " (each {m,n} copies what it repeats n times: use smaller counts)",
        offset: 1)

    mutating func emit(_ node: RegexNode) throws(SafeRegex.CompileError) {
        guard program.count <= Self.maximumProgramSize else { throw Self.tooLarge }
        switch node {
        case .empty: break
        case .scalar(let scalar): program.append(.scalar(caseInsensitive ? Self.fold(scalar) : scalar))
        case .any: program.append(.any)
        case .set(let set):
            // Equal classes share an index, so a match tests each once per character (`SafeRegex.run`).
            if let index = classes.firstIndex(of: set) {
                program.append(.set(index))
            } else {
                classes.append(set)
                program.append(.set(classes.count - 1))
            }
        case .assertion(let assertion): program.append(.assert(assertion))
        case .concatenation(let items):
            for item in items { try emit(item) }
        case .alternation(let branches):
            var jumps: [Int] = []
            for (offset, branch) in branches.enumerated() {
                if offset < branches.count - 1 {
                    let split = program.count
                    program.append(.split(split + 1, 0))
                    try emit(branch)
                    jumps.append(program.count)
                    program.append(.jump(0))
                    program[split] = .split(split + 1, program.count)
                } else {
                    try emit(branch)
                }
            }
            for jump in jumps { program[jump] = .jump(program.count) }
        case .repetition(let body, let minimum, let maximum):
            for _ in 0..<minimum { try emit(body) }
            if let maximum {
                // Each optional copy: split(body, end-of-all-optionals).
                var splits: [Int] = []
                for _ in minimum..<maximum {
                    splits.append(program.count)
                    program.append(.split(program.count + 1, 0))
                    try emit(body)
                }
                for split in splits { program[split] = .split(split + 1, program.count) }
            } else {
                let loop = program.count
                program.append(.split(loop + 1, 0))
                try emit(body)
                program.append(.jump(loop))
                program[loop] = .split(loop + 1, program.count)
            }
        }
    }
}
