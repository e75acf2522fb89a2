/// Prints the AST back to predicate source that parses to the same tree.
struct PredicatePrinter {
    let variables: [PredicateVariable]
    let formMode: Bool

    func print(_ node: PredicateNode) -> String {
        switch node {
        case .constant(let flag): return flag ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .not(let operand):
            if case .comparison = operand { return "NOT " + print(operand) }
            if case .constant = operand { return "NOT " + print(operand) }
            if case .not = operand { return "NOT " + print(operand) }
            return "NOT (" + print(operand) + ")"
        case .and(let operands):
            return operands.map { operand in
                if case .or = operand { return "(" + print(operand) + ")" }
                if case .and = operand { return "(" + print(operand) + ")" }
                return print(operand)
            }.joined(separator: " AND ")
        case .or(let operands):
            return operands.map { operand in
                if case .or = operand { return "(" + print(operand) + ")" }
                return print(operand)
            }.joined(separator: " OR ")
        case .comparison(let comparison):
            let quantifier = comparison.quantifier.map { $0.rawValue + " " } ?? ""
            let letters = comparison.options.letters
            let modifier = letters.isEmpty ? "" : "[\(letters)]"
            // A parenthesised expression on the left would read as a predicate group, which the parser handles,
            // so no special care is needed beyond ordinary precedence.
            return quantifier + print(comparison.left) + " " + comparison.comparator.rawValue + modifier + " "
                + print(comparison.right)
        }
    }

    func print(_ node: ExpressionNode) -> String {
        switch node {
        case .literal(let value): return literal(value)
        case .variable(let index): return variable(index, followedByKey: nil)
        case .evaluatedObject: return "SELF"
        case .keyPath(let base, let keys):
            let path = keys.map(Self.key).joined(separator: ".")
            guard let base else { return path }
            if case .variable(let index) = base { return variable(index, followedByKey: keys.first) + "." + path }
            return postfixBase(base) + "." + path
        case .index(let base, let selector):
            let inside: String
            switch selector {
            case .first: inside = "FIRST"
            case .last: inside = "LAST"
            case .size: inside = "SIZE"
            case .expression(let expression): inside = print(expression)
            }
            return postfixBase(base) + "[" + inside + "]"
        case .aggregate(let elements):
            return "{" + elements.map(print).joined(separator: ", ") + "}"
        case .arithmetic(let op, let left, let right):
            let precedence = OperatorTable.precedence(of: op)
            let leftText = operand(left, parentPrecedence: precedence, parenthesizeEqual: op == .power)
            let rightText = operand(right, parentPrecedence: precedence, parenthesizeEqual: op != .power)
            return leftText + " " + op.rawValue + " " + rightText
        case .negate(let operand):
            if case .arithmetic = operand { return "-(" + print(operand) + ")" }
            // `--$x` rather than `-(-$x)`: parentheses would cost nesting depth the source did not use.
            if case .negate = operand { return "-" + print(operand) }
            if case .literal(.number(let number)) = operand, number < 0 { return "-(" + print(operand) + ")" }
            return "-" + print(operand)
        }
    }

    private func operand(_ node: ExpressionNode, parentPrecedence: Int, parenthesizeEqual: Bool) -> String {
        guard case .arithmetic(let op, _, _) = node else { return print(node) }
        let precedence = OperatorTable.precedence(of: op)
        if precedence < parentPrecedence || (precedence == parentPrecedence && parenthesizeEqual) {
            return "(" + print(node) + ")"
        }
        return print(node)
    }

    /// A key path or index base: anything looser than a primary needs parentheses.
    private func postfixBase(_ node: ExpressionNode) -> String {
        switch node {
        case .arithmetic, .negate: return "(" + print(node) + ")"
        case .literal(.number(let number)) where number < 0: return "(" + print(node) + ")"
        default: return print(node)
        }
    }

    private func variable(_ index: Int, followedByKey key: String?) -> String {
        let reference = variables[index]
        let name =
            Self.isIdentifier(reference.name) ? "$" + reference.name : "${" + reference.name + "}"
        guard formMode else { return name }
        switch reference.attribute {
        case .value:
            // `$tag.value.isHidden` must not reprint as `$tag.isHidden`, which would read the row's state.
            if let key, PredicateAttribute(rawValue: key) != nil { return name + ".value" }
            return name
        case .isHidden, .isDisabled: return name + "." + reference.attribute.rawValue
        }
    }

    private func literal(_ value: PredicateValue) -> String {
        switch value {
        case .null: return "NULL"
        case .bool(let flag): return flag ? "TRUE" : "FALSE"
        case .number(let number): return NumberFormatting.json(number)
        case .string(let text): return Self.quoted(text)
        case .array(let elements): return "{" + elements.map(literal).joined(separator: ", ") + "}"
        case .dictionary: return "NULL"  // The parser never produces dictionary literals.
        }
    }

    static func quoted(_ text: String) -> String {
        var result = "'"
        for scalar in text.unicodeScalars {
            switch scalar {
            case "'": result += "\\'"
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case "\0": result += "\\0"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                result += "\\x" + (hex.count < 2 ? "0" : "") + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "'"
    }

    static func key(_ key: String) -> String {
        if key.hasPrefix("@") { return key }
        return Keyword.matching(key) != nil ? "#" + key : key
    }

    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, Scanner.isIdentifierStart(first) else { return false }
        return name.unicodeScalars.allSatisfy(Scanner.isIdentifierPart)
    }
}
