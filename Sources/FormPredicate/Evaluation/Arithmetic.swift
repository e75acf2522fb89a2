import Foundation

/// `+ - * / **` and unary minus over doubles, with NSNumber-style coercion of operands.
enum Arithmetic {
    /// Booleans count as 1 and 0; a string is read as its numeric prefix; null is an error.
    static func operand(_ value: PredicateValue?, of op: ArithmeticOperator) throws(PredicateEvaluationError) -> Double
    {
        switch value ?? .null {
        case .number(let number): return number
        case .bool(let flag): return flag ? 1 : 0
        case .string(let text): return NumericPrefix.value(of: text)
        case .null:
            throw PredicateEvaluationError(code: .arithmeticOnNull, message: "'\(op.rawValue)' with a null operand")
        case let other:
            throw PredicateEvaluationError(code: .typeMismatch, message: "'\(op.rawValue)' on \(other.kindName)")
        }
    }

    static func apply(_ op: ArithmeticOperator, _ left: Double, _ right: Double) -> Double {
        switch op {
        case .add: left + right
        case .subtract: left - right
        case .multiply: left * right
        case .divide: left / right
        case .power: pow(left, right)
        }
    }
}

/// The number at the start of a string, as `-[NSString doubleValue]` reads it; 0 when there is none.
enum NumericPrefix {
    static func value(of text: String) -> Double {
        var bytes = text.utf8.makeIterator()
        var prefix: [UInt8] = []
        var sawDigit = false
        var sawDot = false
        var sawExponent = false
        var leading = true
        while let byte = bytes.next() {
            let isDigit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            if leading, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") {
                continue
            }
            leading = false
            if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
                guard prefix.isEmpty || prefix.last == UInt8(ascii: "e") else { break }
            } else if byte == UInt8(ascii: ".") {
                guard !sawDot, !sawExponent else { break }
                sawDot = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                guard sawDigit, !sawExponent else { break }
                sawExponent = true
            } else if isDigit {
                sawDigit = true
            } else {
                break
            }
            prefix.append(byte == UInt8(ascii: "E") ? UInt8(ascii: "e") : byte)
        }
        return finish(prefix, sawDigit: sawDigit)
    }

    private static func finish(_ prefix: [UInt8], sawDigit: Bool) -> Double {
        guard sawDigit else { return 0 }
        var trimmed = prefix
        // A dangling exponent or sign (`3e`, `3e-`) is not part of the number.
        while let last = trimmed.last, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(last),
            last != UInt8(ascii: ".")
        {
            trimmed.removeLast()
        }
        return Double(String(decoding: trimmed, as: UTF8.self)) ?? 0
    }
}
