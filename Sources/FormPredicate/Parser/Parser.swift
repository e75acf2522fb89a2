/// Recursive-descent parser over `Scanner` tokens, with binary precedence from `OperatorTable`.
///
/// A leading `(` may open a predicate group or a parenthesised expression (`($x + 1) * 2 == 6`). Rather than
/// backtracking, which is exponential in nesting, the group is parsed once in a mode that may yield either.
struct Parser {
    /// What a parenthesised group turned out to be.
    enum Operand {
        case predicate(PredicateNode)
        case expression(ExpressionNode)
    }

    private(set) var scanner: Scanner
    private(set) var current: Token
    private(set) var previous: Token?
    private var depth = 0
    let maximumDepth: Int
    let formMode: Bool
    private(set) var variables: [PredicateVariable] = []
    private var variableIndexes: [PredicateVariable: Int] = [:]

    /// Parses a whole predicate, returning its AST and its distinct variables in first-use order.
    static func parse(
        _ source: String, options: PredicateParseOptions
    ) throws(PredicateParseError) -> (PredicateNode, [PredicateVariable]) {
        var scanner = Scanner(source, options: options)
        if scanner.isBlank {
            throw PredicateParseError(code: .emptyPredicate, column: 1, message: "the predicate is empty")
        }
        let first = try scanner.next()
        var parser = Parser(
            scanner: scanner, current: first, maximumDepth: options.maximumDepth,
            formMode: options.knownTags != nil)
        let root = try parser.parsePredicate()
        return (root, parser.variables)
    }

    private init(scanner: Scanner, current: Token, maximumDepth: Int, formMode: Bool) {
        self.scanner = scanner
        self.current = current
        self.maximumDepth = maximumDepth
        self.formMode = formMode
    }

    private mutating func parsePredicate() throws(PredicateParseError) -> PredicateNode {
        let operand = try parseLogical(minimumPrecedence: OperatorTable.logicalFloor, allowExpression: false)
        guard case .predicate(let root) = operand else { throw notAPredicate() }
        guard current.kind == .end else {
            throw error(
                .unexpectedToken, "unexpected \(current.kind.displayName); expected AND, OR or the end of the predicate"
            )
        }
        return root
    }

    // MARK: - Token handling

    mutating func advance() throws(PredicateParseError) {
        previous = current
        current = try scanner.next()
    }

    /// The token after `current`, without consuming anything; a scan error reads as the end.
    func peek() -> Token.Kind {
        var probe = scanner
        return (try? probe.next())?.kind ?? .end
    }

    mutating func expect(_ symbol: Symbol, closing opener: Token? = nil) throws(PredicateParseError) {
        guard current.kind == .symbol(symbol) else {
            let context = opener.map { " to close '\(Self.spelling(of: $0.kind))' at column \($0.column)" } ?? ""
            throw error(.expectedToken, "expected '\(symbol.rawValue)'\(context), found \(current.kind.displayName)")
        }
        try advance()
    }

    /// Runs `body` one nesting level deeper, failing past the limit so input cannot exhaust the stack.
    mutating func nested<T>(_ body: (inout Parser) throws(PredicateParseError) -> T) throws(PredicateParseError) -> T {
        depth += 1
        defer { depth -= 1 }
        guard depth <= maximumDepth else {
            // Every caller has just consumed the token that opens the level, so point at it.
            throw error(.nestingTooDeep, "nesting deeper than \(maximumDepth) levels", at: previous?.column)
        }
        return try body(&self)
    }

    func error(_ code: PredicateParseError.Code, _ message: String, at column: Int? = nil) -> PredicateParseError {
        PredicateParseError(code: code, column: column ?? current.column, message: message)
    }

    func notAPredicate() -> PredicateParseError {
        error(.notAPredicate, "expected a comparison operator: an expression alone is not a predicate")
    }

    static func spelling(of kind: Token.Kind) -> String {
        switch kind {
        case .symbol(let symbol): symbol.rawValue
        case .keyword(let keyword): keyword.rawValue
        default: kind.displayName
        }
    }

    // MARK: - Predicate layer

    /// `or` and `and` by precedence climbing; `allowExpression` lets a group's sole content be an expression.
    mutating func parseLogical(
        minimumPrecedence: Int, allowExpression: Bool
    ) throws(PredicateParseError) -> Operand {
        let left = try parseNot(allowExpression: allowExpression)
        // A chain `a AND b AND …` is kept flat, its operands in one array that grows in place: rebuilding
        // the node for every term would copy the array each time, quadratic in the chain's length.
        var chain: (op: OperatorTable.Operator, operands: [PredicateNode])?
        while let entry = OperatorTable.entry(for: current.kind), entry.precedence >= minimumPrecedence {
            if case .arithmetic = entry.op { break }
            if chain?.op != entry.op {
                guard case .predicate(let leftNode) = Self.close(chain, else: left) else { throw notAPredicate() }
                switch (entry.op, leftNode) {
                case (.and, .and(let operands)), (.or, .or(let operands)): chain = (entry.op, operands)
                default: chain = (entry.op, [leftNode])
                }
            }
            let spelling = Self.spelling(of: current.kind)
            try advance()
            let right = try parseLogical(minimumPrecedence: entry.precedence + 1, allowExpression: false)
            guard case .predicate(let rightNode) = right else {
                throw error(.expectedValue, "expected a comparison after '\(spelling)'")
            }
            chain?.operands.append(rightNode)
        }
        return Self.close(chain, else: left)
    }

    /// The node of a chain of `and` or `or` operands, or `operand` when there is no chain.
    private static func close(
        _ chain: (op: OperatorTable.Operator, operands: [PredicateNode])?, else operand: Operand
    ) -> Operand {
        switch chain?.op {
        case .and: .predicate(.and(chain?.operands ?? []))
        case .or: .predicate(.or(chain?.operands ?? []))
        default: operand
        }
    }

    mutating func parseNot(allowExpression: Bool) throws(PredicateParseError) -> Operand {
        switch current.kind {
        case .keyword(.not), .symbol(.bang):
            let spelling = Self.spelling(of: current.kind)
            try advance()
            if current.kind == .end { throw error(.expectedValue, "expected a comparison after '\(spelling)'") }
            let operand = try nested { parser throws(PredicateParseError) in
                try parser.parseNot(allowExpression: false)
            }
            guard case .predicate(let node) = operand else { throw notAPredicate() }
            return .predicate(.not(node))
        case .keyword(.truePredicate):
            try advance()
            return .predicate(.constant(true))
        case .keyword(.falsePredicate):
            try advance()
            return .predicate(.constant(false))
        default:
            return try parseComparison(allowExpression: allowExpression)
        }
    }

    mutating func parseComparison(allowExpression: Bool) throws(PredicateParseError) -> Operand {
        var quantifier: Quantifier?
        switch current.kind {
        case .keyword(.any), .keyword(.some): quantifier = .any
        case .keyword(.all): quantifier = .all
        case .keyword(.none): quantifier = Quantifier.none
        default: break
        }
        if quantifier != nil { try advance() }

        let left: ExpressionNode
        if quantifier == nil, current.kind == .symbol(.openParen) {
            let opener = current
            try advance()
            let inner = try nested { parser throws(PredicateParseError) in
                try parser.parseLogical(minimumPrecedence: OperatorTable.logicalFloor, allowExpression: true)
            }
            try expect(.closeParen, closing: opener)
            switch inner {
            case .predicate(let node): return .predicate(node)
            case .expression(let expression): left = try continueExpression(from: expression)
            }
        } else {
            left = try parseExpression()
        }

        guard let comparator = OperatorTable.comparator(for: current.kind) else {
            if quantifier == nil, allowExpression, current.kind == .symbol(.closeParen) { return .expression(left) }
            if current.kind == .end || current.kind == .symbol(.closeParen) { throw notAPredicate() }
            throw error(
                .expectedOperator,
                "expected a comparison operator (==, <, IN, CONTAINS, ...), found \(current.kind.displayName)")
        }
        let operatorToken = current
        try advance()
        let options = try parseOptions()
        if !Self.canStartExpression(current.kind) {
            throw error(.expectedValue, "expected a value after '\(Self.spelling(of: operatorToken.kind))'")
        }
        let right = try parseExpression()
        var regex: Result<SafeRegex, SafeRegex.CompileError>?
        if comparator == .matches, case .literal(.string(let pattern)) = right {
            regex = Result { () throws(SafeRegex.CompileError) in
                try SafeRegex(pattern, caseInsensitive: options.contains(.caseInsensitive))
            }
            // A form's conditions are checked at load: a bad literal pattern is the author's error now,
            // not a request's later. (NSPredicate reports it when evaluating, which the corpus follows.)
            if formMode, case .failure(let problem)? = regex {
                throw error(.invalidRegex, "invalid regular expression: \(problem)", at: operatorToken.column)
            }
        }
        return .predicate(
            .comparison(
                ComparisonNode(
                    quantifier: quantifier, comparator: comparator, options: options, left: left, right: right,
                    regex: regex, column: operatorToken.column)))
    }

    /// `[c]`, `[d]` or `[cd]` right after an operator.
    private mutating func parseOptions() throws(PredicateParseError) -> ComparisonOptions {
        guard current.kind == .symbol(.openBracket) else { return [] }
        let opener = current
        try advance()
        guard case .key(let letters) = current.kind else {
            throw error(.invalidModifier, "expected c, d or cd inside the operator's '[ ]'")
        }
        var options: ComparisonOptions = []
        for letter in letters.lowercased() {
            switch letter {
            case "c" where !options.contains(.caseInsensitive): options.insert(.caseInsensitive)
            case "d" where !options.contains(.diacriticInsensitive): options.insert(.diacriticInsensitive)
            default: throw error(.invalidModifier, "unknown operator modifier '\(letters)'; expected c, d or cd")
            }
        }
        try advance()
        try expect(.closeBracket, closing: opener)
        return options
    }

    // MARK: - Variables

    /// The index of `variable` in `variables`, adding it on first use.
    mutating func index(of variable: PredicateVariable) -> Int {
        if let index = variableIndexes[variable] { return index }
        variables.append(variable)
        variableIndexes[variable] = variables.count - 1
        return variables.count - 1
    }
}
