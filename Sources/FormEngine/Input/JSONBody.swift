/// Reads a JSON submission: one object whose keys are row tags (and multivalued tags) and whose values
/// are scalars or lists of scalars.
///
/// Strict on purpose (RFC 8259): no comments, no trailing commas, no duplicate keys (two parsers that
/// disagree on which duplicate wins are a smuggling route), and a nesting limit far below what could
/// exhaust a stack, so a body nested 10,000 deep is refused in linear time.
public enum JSONBody {
    /// The deepest nesting of arrays and objects read.
    public static let maximumDepth = 32

    /// The fields of `bytes`, or an error that says what is wrong and where.
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONBodyError) -> SubmittedFields {
        var reader = JSONReader(bytes: Array(bytes))
        reader.skipSpace()
        guard reader.peek == UInt8(ascii: "{") else {
            throw reader.error("a JSON submission must be an object of tag → value")
        }
        var fields = SubmittedFields()
        fields.isJSON = true
        try reader.object(depth: 1) { key, value in fields.append(key, value) }
        reader.skipSpace()
        guard reader.atEnd else { throw reader.error("unexpected text after the object") }
        return fields
    }
}

/// A JSON body that cannot be read, with the byte offset of the problem.
public struct JSONBodyError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public let message: String
    /// Where, in bytes from the start of the body.
    public let offset: Int

    public var description: String { "invalid JSON at byte \(offset): \(message)" }
}

/// A cursor over the body's bytes.
struct JSONReader {
    let bytes: [UInt8]
    var position = 0

    var atEnd: Bool { position >= bytes.count }
    var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    func error(_ message: String) -> JSONBodyError { JSONBodyError(message: message, offset: position) }

    mutating func skipSpace() {
        while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    mutating func expect(_ byte: UInt8, _ what: String) throws(JSONBodyError) {
        skipSpace()
        guard peek == byte else { throw error("expected \(what)") }
        position += 1
    }

    /// Reads `{ "key": value, … }`, handing each pair over; duplicate keys are refused.
    mutating func object(depth: Int, _ pair: (String, RawValue) -> Void) throws(JSONBodyError) {
        try members(depth: depth) { key, reader throws(JSONBodyError) in pair(key, try reader.value(depth: depth)) }
    }

    /// Reads `{ "key": value, … }`, letting `read` read each key's value; duplicate keys are refused.
    mutating func members(
        depth: Int, _ read: (String, inout JSONReader) throws(JSONBodyError) -> Void
    ) throws(JSONBodyError) {
        try expect(UInt8(ascii: "{"), "'{'")
        var seen = Set<String>()
        skipSpace()
        if peek == UInt8(ascii: "}") {
            position += 1
            return
        }
        while true {
            skipSpace()
            guard peek == UInt8(ascii: "\"") else { throw error("expected a key in double quotes") }
            let keyStart = position
            let key = try string()
            guard seen.insert(key).inserted else {
                throw JSONBodyError(message: "the key '\(key)' appears more than once", offset: keyStart)
            }
            try expect(UInt8(ascii: ":"), "':' after a key")
            try read(key, &self)
            skipSpace()
            switch peek {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return
            default: throw error("expected ',' or '}'")
            }
        }
    }

    mutating func value(depth: Int) throws(JSONBodyError) -> RawValue {
        skipSpace()
        guard let byte = peek else { throw error("unexpected end of the body") }
        switch byte {
        case UInt8(ascii: "\""): return .text(try string())
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < JSONBody.maximumDepth else {
                throw error("nested deeper than \(JSONBody.maximumDepth) levels")
            }
            if byte == UInt8(ascii: "{") {
                try object(depth: depth + 1) { _, _ in }
                return .object
            }
            return .list(try array(depth: depth + 1))
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: return .number(try number())
        }
    }

    mutating func array(depth: Int) throws(JSONBodyError) -> [RawValue] {
        position += 1  // [
        var items: [RawValue] = []
        skipSpace()
        if peek == UInt8(ascii: "]") {
            position += 1
            return items
        }
        while true {
            items.append(try value(depth: depth))
            skipSpace()
            switch peek {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return items
            default: throw error("expected ',' or ']'")
            }
        }
    }

    mutating func literal(_ word: String, _ result: RawValue) throws(JSONBodyError) -> RawValue {
        for expected in word.utf8 {
            guard peek == expected else { throw error("expected \(word)") }
            position += 1
        }
        return result
    }
}
