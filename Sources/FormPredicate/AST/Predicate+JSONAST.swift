/// The JSON form of the compiled AST, for the browser's evaluator (docs/predicate-ast-json.md).
extension Predicate {
    /// The AST as compact JSON: `{"v":1,"vars":[...],"root":{...}}`. The format is documented and versioned.
    public func jsonAST() -> String {
        var writer = JSONWriter()
        writer.raw("{")
        writer.key("v", first: true)
        writer.raw("1")
        writer.key("vars")
        writer.raw("[")
        for (offset, variable) in variables.enumerated() {
            if offset > 0 { writer.raw(",") }
            writer.raw("{")
            writer.key("name", first: true)
            writer.writeString(variable.name)
            writer.key("attr")
            writer.writeString(variable.attribute.rawValue)
            writer.raw("}")
        }
        writer.raw("]")
        writer.key("root")
        ASTJSONEncoder(variables: variables).write(root, to: &writer)
        writer.raw("}")
        return writer.text
    }
}

/// Writes AST nodes; every node is an object whose `t` names its kind.
struct ASTJSONEncoder {
    let variables: [PredicateVariable]

    func write(_ node: PredicateNode, to writer: inout JSONWriter) {
        writer.raw("{")
        switch node {
        case .constant(let flag):
            tag("const", &writer)
            writer.key("value")
            writer.raw(flag ? "true" : "false")
        case .not(let operand):
            tag("not", &writer)
            writer.key("p")
            write(operand, to: &writer)
        case .and(let operands), .or(let operands):
            if case .and = node { tag("and", &writer) } else { tag("or", &writer) }
            writer.key("ps")
            writer.raw("[")
            for (offset, operand) in operands.enumerated() {
                if offset > 0 { writer.raw(",") }
                write(operand, to: &writer)
            }
            writer.raw("]")
        case .comparison(let comparison):
            tag("cmp", &writer)
            writer.key("op")
            writer.writeString(comparison.comparator.rawValue)
            if let quantifier = comparison.quantifier {
                writer.key("q")
                writer.writeString(quantifier.rawValue)
            }
            if !comparison.options.isEmpty {
                writer.key("m")
                writer.writeString(comparison.options.letters)
            }
            writer.key("l")
            write(comparison.left, to: &writer)
            writer.key("r")
            write(comparison.right, to: &writer)
        }
        writer.raw("}")
    }

    func write(_ node: ExpressionNode, to writer: inout JSONWriter) {
        writer.raw("{")
        switch node {
        case .literal(let value):
            tag("lit", &writer)
            writer.key("value")
            writer.write(value)
        case .variable(let index):
            tag("var", &writer)
            writer.key("i")
            writer.raw(String(index))
            writer.key("name")
            writer.writeString(variables[index].name)
            writer.key("attr")
            writer.writeString(variables[index].attribute.rawValue)
        case .evaluatedObject:
            tag("self", &writer)
        case .keyPath(let base, let keys):
            tag("path", &writer)
            if let base {
                writer.key("e")
                write(base, to: &writer)
            }
            writer.key("keys")
            writer.write(.array(keys.map(PredicateValue.string)))
        case .index(let base, let selector):
            tag("index", &writer)
            writer.key("e")
            write(base, to: &writer)
            writer.key("at")
            switch selector {
            case .first: writer.writeString("FIRST")
            case .last: writer.writeString("LAST")
            case .size: writer.writeString("SIZE")
            case .expression(let expression): write(expression, to: &writer)
            }
        case .aggregate(let elements):
            tag("agg", &writer)
            writer.key("es")
            writer.raw("[")
            for (offset, element) in elements.enumerated() {
                if offset > 0 { writer.raw(",") }
                write(element, to: &writer)
            }
            writer.raw("]")
        case .arithmetic(let op, let left, let right):
            tag("arith", &writer)
            writer.key("op")
            writer.writeString(op.rawValue)
            writer.key("l")
            write(left, to: &writer)
            writer.key("r")
            write(right, to: &writer)
        case .negate(let operand):
            tag("neg", &writer)
            writer.key("e")
            write(operand, to: &writer)
        }
        writer.raw("}")
    }

    private func tag(_ kind: String, _ writer: inout JSONWriter) {
        writer.key("t", first: true)
        writer.writeString(kind)
    }
}
