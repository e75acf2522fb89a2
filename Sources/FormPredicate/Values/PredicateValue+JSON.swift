/// Reading values from JSON (the line protocol's `vars`) and writing them back.
extension PredicateValue: Decodable {
    /// Decodes any JSON value; `true`/`false` stay booleans and never become numbers.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let elements = try? container.decode([PredicateValue].self) {
            self = .array(elements)
        } else {
            self = .dictionary(try container.decode([String: PredicateValue].self))
        }
    }
}

extension PredicateValue {
    /// The value as compact JSON text, with dictionary keys sorted so output is stable.
    public var jsonText: String {
        var writer = JSONWriter()
        writer.write(self)
        return writer.text
    }
}

/// Builds JSON text by hand, so the AST's key order is fixed and no `Any` is involved.
struct JSONWriter {
    private(set) var text = ""

    mutating func raw(_ fragment: String) {
        text += fragment
    }

    mutating func write(_ value: PredicateValue) {
        switch value {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .number(let number): text += NumberFormatting.json(number)
        case .string(let string): writeString(string)
        case .array(let elements):
            text += "["
            for (offset, element) in elements.enumerated() {
                if offset > 0 { text += "," }
                write(element)
            }
            text += "]"
        case .dictionary(let entries):
            text += "{"
            for (offset, key) in entries.keys.sorted().enumerated() {
                if offset > 0 { text += "," }
                writeString(key)
                text += ":"
                write(entries[key] ?? .null)
            }
            text += "}"
        }
    }

    mutating func writeString(_ string: String) {
        text += JSONString.quoted(string)
    }

    /// Writes `"key":` after an optional comma.
    mutating func key(_ name: String, first: Bool = false) {
        if !first { text += "," }
        writeString(name)
        text += ":"
    }
}

/// How numbers print in predicate source and JSON: integers without a fraction, others shortest round-trip.
enum NumberFormatting {
    static func json(_ number: Double) -> String {
        // JSON has no infinity; an exponent too large for a double parses back to infinity in JavaScript.
        if number.isInfinite { return number < 0 ? "-1e999" : "1e999" }
        if number.isNaN { return "null" }
        if number == number.rounded(), abs(number) < 1e15 {
            // Negative zero keeps its sign: `1 / -0` is -infinity.
            if number == 0 { return number.sign == .minus ? "-0" : "0" }
            return String(Int64(number))
        }
        return "\(number)"
    }
}
