/// Key-value coding as NSPredicate applies it: keys, collection operators and indexes.
enum KeyPathEvaluation {
    typealias Failure = PredicateEvaluationError

    /// Applies `keys` in turn; a key starting with `@` is a collection operator over the rest of the path.
    static func apply(_ keys: ArraySlice<String>, to start: PredicateValue?) throws(Failure) -> PredicateValue? {
        var current = start
        var position = keys.startIndex
        while position < keys.endIndex {
            let key = keys[position]
            if key.hasPrefix("@") {
                return try collectionOperator(key, rest: keys[(position + 1)...], on: current)
            }
            current = try value(forKey: key, in: current)
            position += 1
        }
        return current
    }

    /// `valueForKey:` on one value.
    static func value(forKey key: String, in value: PredicateValue?) throws(Failure) -> PredicateValue? {
        guard let value else { return nil }  // Messaging nil gives nil.
        switch value {
        case .null:
            throw Failure(code: .keyPathOnNull, message: "key '\(key)' applied to null")
        case .dictionary(let entries):
            return entries[key]
        case .array(let elements):
            // NSArray answers with each element's value, nil becoming NSNull.
            return .array(
                try elements.map { element throws(Failure) in
                    if case .null = element { return .null }
                    return try Self.value(forKey: key, in: element) ?? .null
                })
        case .string(let text):
            if key == "length" { return .number(Double(text.utf16.count)) }
            if let number = accessor(key, NumericPrefix.value(of: text)) { return number }
            throw Failure(code: .unknownKey, message: "a string has no key '\(key)'")
        case .number, .bool:
            let number = value.numericValue ?? 0
            if key == "stringValue" {
                if case .bool(let flag) = value { return .string(flag ? "1" : "0") }
                return .string(NumberFormatting.json(number))
            }
            if let result = accessor(key, number) { return result }
            throw Failure(code: .unknownKey, message: "a \(value.kindName) has no key '\(key)'")
        }
    }

    /// The NSNumber/NSString numeric accessors.
    private static func accessor(_ key: String, _ number: Double) -> PredicateValue? {
        switch key {
        case "doubleValue", "floatValue": .number(number)
        case "intValue", "integerValue", "longValue", "longLongValue", "shortValue", "unsignedIntValue",
            "unsignedIntegerValue":
            .number(number.isFinite ? number.rounded(.towardZero) : 0)
        case "boolValue": .bool(number != 0)
        default: nil
        }
    }

    private static func collectionOperator(
        _ name: String, rest: ArraySlice<String>, on value: PredicateValue?
    ) throws(Failure) -> PredicateValue? {
        guard let value else { return nil }
        let elements: [PredicateValue]
        switch value {
        case .array(let array): elements = array
        case .dictionary(let dictionary): elements = Array(dictionary.values)
        default:
            throw Failure(code: .invalidCollectionOperator, message: "\(name) applied to a \(value.kindName)")
        }
        if name == "@count" {
            // The KVC guide: the key path right of @count is ignored.
            return .number(Double(elements.count))
        }
        guard ["@sum", "@avg", "@min", "@max"].contains(name) else {
            throw Failure(code: .invalidCollectionOperator, message: "unknown collection operator '\(name)'")
        }
        guard !rest.isEmpty else {
            throw Failure(
                code: .invalidCollectionOperator,
                message: "\(name) needs a key path on its right, such as \(name).value"
            )
        }
        var operands: [PredicateValue] = []
        for element in elements {
            let operand = try apply(rest, to: element) ?? .null
            if case .null = operand { continue }
            operands.append(operand)
        }
        switch name {
        case "@sum", "@avg":
            var total = 0.0
            for operand in operands {
                total += try Arithmetic.operand(operand, of: .add)
            }
            if name == "@sum" { return .number(total) }
            return operands.isEmpty ? .null : .number(total / Double(operands.count))
        default:
            var best: PredicateValue?
            for operand in operands {
                guard let current = best else {
                    best = operand
                    continue
                }
                let wanted: Comparator = name == "@min" ? .less : .greater
                if try Comparison.ordered(wanted, operand, current, options: []) { best = operand }
            }
            return best ?? .null
        }
    }

    /// `base[selector]`: FIRST, LAST, SIZE or a position (a key for dictionaries).
    static func index(
        _ base: PredicateValue?, _ selector: IndexSelector, position: PredicateValue?
    ) throws(Failure) -> PredicateValue? {
        switch base ?? .null {
        case .null:
            return nil
        case .array(let elements):
            switch selector {
            case .first: return elements.first
            case .last: return elements.last
            case .size: return .number(Double(elements.count))
            case .expression:
                guard let number = position?.numericValue, number == number.rounded(), number >= 0,
                    number < Double(elements.count)
                else {
                    throw Failure(
                        code: .indexOutOfRange,
                        message: "index \((position ?? .null).jsonText) out of range for an array of \(elements.count)")
                }
                return elements[Int(number)]
            }
        case .dictionary(let entries):
            switch selector {
            case .size: return .number(Double(entries.count))
            case .expression:
                guard case .string(let key) = position else {
                    throw Failure(code: .typeMismatch, message: "a dictionary is indexed by a string key")
                }
                return entries[key]
            case .first, .last:
                throw Failure(code: .typeMismatch, message: "FIRST and LAST need an array, got a dictionary")
            }
        case let other:
            throw Failure(code: .typeMismatch, message: "cannot index a \(other.kindName)")
        }
    }
}
