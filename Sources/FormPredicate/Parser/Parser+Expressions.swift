/// The expression layer: arithmetic, unary minus, postfix key paths and indexes, primaries.
extension Parser {
    static func canStartExpression(_ kind: Token.Kind) -> Bool {
        switch kind {
        case .number, .string, .variable, .key: true
        case .symbol(let symbol): symbol == .minus || symbol == .openParen || symbol == .openBrace
        case .keyword(let keyword):
            [.true, .yes, .false, .no, .null, .nil, .self].contains(keyword)
        case .end: false
        }
    }

    mutating func parseExpression() throws(PredicateParseError) -> ExpressionNode {
        try parseBinary(minimumPrecedence: OperatorTable.arithmeticFloor)
    }

    /// Continues an expression whose first primary (a parenthesised group) is already parsed.
    mutating func continueExpression(from primary: ExpressionNode) throws(PredicateParseError) -> ExpressionNode {
        let operand = try parsePostfix(primary)
        return try climb(from: operand, minimumPrecedence: OperatorTable.arithmeticFloor)
    }

    private mutating func parseBinary(minimumPrecedence: Int) throws(PredicateParseError) -> ExpressionNode {
        let left = try parseUnary()
        return try climb(from: left, minimumPrecedence: minimumPrecedence)
    }

    /// Precedence climbing over the arithmetic operators of `OperatorTable`.
    private mutating func climb(
        from start: ExpressionNode, minimumPrecedence: Int
    ) throws(PredicateParseError) -> ExpressionNode {
        var left = start
        var chainLength = 0
        while let entry = OperatorTable.entry(for: current.kind), entry.precedence >= minimumPrecedence,
            case .arithmetic(let op) = entry.op
        {
            let spelling = op.rawValue
            try advance()
            if !Self.canStartExpression(current.kind) {
                throw error(.expectedValue, "expected a value after '\(spelling)'")
            }
            // Each link of a left-associative chain deepens the tree by one, so it counts towards the limit.
            chainLength += 1
            let next = entry.rightAssociative ? entry.precedence : entry.precedence + 1
            let right = try nestedBy(chainLength) { parser throws(PredicateParseError) in
                try parser.parseBinary(minimumPrecedence: next)
            }
            left = .arithmetic(op, left, right)
        }
        return left
    }

    private mutating func nestedBy<T>(
        _ levels: Int, _ body: (inout Parser) throws(PredicateParseError) -> T
    ) throws(PredicateParseError) -> T {
        if levels <= 1 { return try nested(body) }
        return try nested { parser throws(PredicateParseError) in try parser.nestedBy(levels - 1, body) }
    }

    private mutating func parseUnary() throws(PredicateParseError) -> ExpressionNode {
        guard current.kind == .symbol(.minus) else {
            return try parsePostfix(try parsePrimary())
        }
        try advance()
        if !Self.canStartExpression(current.kind) { throw error(.expectedValue, "expected a value after '-'") }
        let operand = try nested { parser throws(PredicateParseError) in try parser.parseUnary() }
        // `-5` is the number -5: folding keeps the AST and its JSON form simple.
        if case .literal(.number(let number)) = operand { return .literal(.number(-number)) }
        return .negate(operand)
    }

    private mutating func parsePostfix(_ primary: ExpressionNode) throws(PredicateParseError) -> ExpressionNode {
        var node = primary
        var keys: [String] = []
        // Keys are gathered into one key-path node; an index closes the run.
        func flush(_ node: ExpressionNode, _ keys: inout [String]) -> ExpressionNode {
            guard !keys.isEmpty else { return node }
            defer { keys = [] }
            if case .keyPath(let base, let existing) = node { return .keyPath(base, existing + keys) }
            return .keyPath(node, keys)
        }
        while true {
            switch current.kind {
            case .symbol(.dot):
                try advance()
                guard case .key(let key) = current.kind else {
                    let hint =
                        if case .keyword(let word) = current.kind {
                            "; write '#\(word.rawValue.lowercased())' for a reserved word"
                        } else { "" }
                    throw error(.expectedValue, "expected a key after '.'\(hint)")
                }
                keys.append(key)
                try advance()
            case .symbol(.openBracket):
                node = flush(node, &keys)
                let opener = current
                try advance()
                let selector: IndexSelector
                switch current.kind {
                case .keyword(.first): selector = .first
                case .keyword(.last): selector = .last
                case .keyword(.size): selector = .size
                default:
                    if !Self.canStartExpression(current.kind) {
                        throw error(.expectedValue, "expected an index, FIRST, LAST or SIZE after '['")
                    }
                    selector = .expression(
                        try nested { parser throws(PredicateParseError) in try parser.parseExpression() })
                }
                if case .expression = selector {} else { try advance() }
                try expect(.closeBracket, closing: opener)
                node = .index(node, selector)
                try checkDepth(of: node)
            default:
                return flush(node, &keys)
            }
        }
    }

    /// Indexes chain without recursion, so each one counts towards the nesting limit explicitly.
    private func checkDepth(of node: ExpressionNode) throws(PredicateParseError) {
        var levels = 0
        var cursor = node
        while case .index(let base, _) = cursor {
            levels += 1
            cursor = base
        }
        if levels > maximumDepth { throw error(.nestingTooDeep, "nesting deeper than \(maximumDepth) levels") }
    }

    private mutating func parsePrimary() throws(PredicateParseError) -> ExpressionNode {
        let token = current
        switch token.kind {
        case .number(let number):
            try advance()
            return .literal(.number(number))
        case .string(let text):
            try advance()
            return .literal(.string(text))
        case .keyword(.true), .keyword(.yes):
            try advance()
            return .literal(.bool(true))
        case .keyword(.false), .keyword(.no):
            try advance()
            return .literal(.bool(false))
        case .keyword(.null), .keyword(.nil):
            try advance()
            return .literal(.null)
        case .keyword(.self):
            try advance()
            return .evaluatedObject
        case .keyword(let keyword) where [.anyKey, .subquery, .fetch, .cast, .ci, .caseInsensitive].contains(keyword):
            throw error(.unsupportedKeyword, "'\(keyword.rawValue)' is not supported")
        case .variable(let name):
            try advance()
            return .variable(index(of: PredicateVariable(name: name, attribute: try parseFacet())))
        case .key(let key):
            try advance()
            return .keyPath(nil, [key])
        case .symbol(.openBrace):
            try advance()
            return try nested { parser throws(PredicateParseError) in try parser.parseAggregate(opener: token) }
        case .symbol(.openParen):
            try advance()
            let inner = try nested { parser throws(PredicateParseError) in try parser.parseExpression() }
            try expect(.closeParen, closing: token)
            return inner
        default:
            let after = previous.map { " after '\(Self.spelling(of: $0.kind))'" } ?? ""
            throw error(.expectedValue, "expected a value\(after), found \(token.kind.displayName)")
        }
    }

    /// In form mode, `.value`, `.isHidden` or `.isDisabled` right after a tag picks the row's facet.
    private mutating func parseFacet() throws(PredicateParseError) -> PredicateAttribute {
        guard formMode, current.kind == .symbol(.dot), case .key(let key) = peek(),
            let attribute = PredicateAttribute(rawValue: key)
        else { return .value }
        try advance()
        try advance()
        return attribute
    }

    private mutating func parseAggregate(opener: Token) throws(PredicateParseError) -> ExpressionNode {
        var elements: [ExpressionNode] = []
        if current.kind == .symbol(.closeBrace) {
            try advance()
            return .literal(.array([]))
        }
        while true {
            if !Self.canStartExpression(current.kind) {
                throw error(.expectedValue, "expected a value in '{ }', found \(current.kind.displayName)")
            }
            elements.append(try parseExpression())
            switch current.kind {
            case .symbol(.comma): try advance()
            case .symbol(.closeBrace):
                try advance()
                // An aggregate of literals is itself a literal, so `IN {1, 2}` builds no array per evaluation.
                let literals = elements.compactMap { element -> PredicateValue? in
                    if case .literal(let value) = element { return value }
                    return nil
                }
                return literals.count == elements.count ? .literal(.array(literals)) : .aggregate(elements)
            default:
                throw error(
                    .expectedToken,
                    "expected ',' or '}' to close '{' at column \(opener.column), found \(current.kind.displayName)")
            }
        }
    }
}
