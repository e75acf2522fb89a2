extension JSONValue {
    /// The JSON text `bytes` hold, read as strictly as a submission (`JSONBody`): no duplicate keys, no
    /// nesting deeper than `JSONBody.maximumDepth`, nothing after the value. Objects keep their keys in
    /// the order written, numbers their exact text.
    ///
    /// ```swift
    /// let record = try JSONValue(parsing: Array(#"{"username": "ada", "plan": "pro"}"#.utf8))
    /// record["plan"]      // .string("pro")
    /// ```
    public init(parsing bytes: some Collection<UInt8>) throws(JSONBodyError) {
        var reader = JSONReader(bytes: Array(bytes))
        self = try reader.jsonValue(depth: 0)
        reader.skipSpace()
        guard reader.atEnd else { throw reader.error("unexpected text after the value") }
    }
}

extension JSONReader {
    /// Reads one value whole, objects included (`value(depth:)` keeps only what a row can hold).
    mutating func jsonValue(depth: Int) throws(JSONBodyError) -> JSONValue {
        skipSpace()
        guard let byte = peek else { throw error("unexpected end of the body") }
        switch byte {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < JSONBody.maximumDepth else {
                throw error("nested deeper than \(JSONBody.maximumDepth) levels")
            }
            if byte == UInt8(ascii: "[") {
                position += 1
                var items: [JSONValue] = []
                skipSpace()
                if peek == UInt8(ascii: "]") {
                    position += 1
                    return .array(items)
                }
                while true {
                    items.append(try jsonValue(depth: depth + 1))
                    skipSpace()
                    switch peek {
                    case UInt8(ascii: ","): position += 1
                    case UInt8(ascii: "]"):
                        position += 1
                        return .array(items)
                    default: throw error("expected ',' or ']'")
                    }
                }
            }
            var pairs: [(String, JSONValue)] = []
            try members(depth: depth + 1) { key, reader throws(JSONBodyError) in
                pairs.append((key, try reader.jsonValue(depth: depth + 1)))
            }
            return .object(pairs)
        case UInt8(ascii: "t"):
            _ = try literal("true", .bool(true))
            return .bool(true)
        case UInt8(ascii: "f"):
            _ = try literal("false", .bool(false))
            return .bool(false)
        case UInt8(ascii: "n"):
            _ = try literal("null", .null)
            return .null
        default: return .number(try number())
        }
    }
}
