extension JSONReader {
    /// Reads a string in double quotes, resolving escapes (surrogate pairs included); control
    /// characters and invalid UTF-8 are refused, as RFC 8259 requires.
    mutating func string() throws(JSONBodyError) -> String {
        position += 1  // "
        var utf8: [UInt8] = []
        while true {
            guard let byte = peek else { throw error("unterminated string") }
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: utf8, as: UTF8.self) else { throw error("invalid UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                try escape(into: &utf8)
            case 0..<0x20:
                throw error("a control character inside a string must be escaped")
            default:
                utf8.append(byte)
            }
        }
    }

    private mutating func escape(into utf8: inout [UInt8]) throws(JSONBodyError) {
        guard let byte = peek else { throw error("unterminated escape") }
        position += 1
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
            UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
        ]
        if let plain = simple[byte] {
            utf8.append(plain)
            return
        }
        guard byte == UInt8(ascii: "u") else { throw error("unknown escape '\\\(Character(Unicode.Scalar(byte)))'") }
        var code = try hex4()
        if (0xD800..<0xDC00).contains(code) {
            // A high surrogate must be followed by an escaped low one (RFC 8259 §7).
            guard peek == UInt8(ascii: "\\") else { throw error("a lone surrogate") }
            position += 1
            guard peek == UInt8(ascii: "u") else { throw error("a lone surrogate") }
            position += 1
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw error("a lone surrogate") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(code) else { throw error("a lone surrogate") }
        utf8.append(contentsOf: String(Character(scalar)).utf8)
    }

    private mutating func hex4() throws(JSONBodyError) -> UInt32 {
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek, let digit = Self.hexValue(byte) else { throw error("expected 4 hex digits") }
            code = code << 4 | UInt32(digit)
            position += 1
        }
        return code
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Reads a number in RFC 8259's grammar and returns its text, so decimals stay exact.
    mutating func number() throws(JSONBodyError) -> String {
        let start = position
        func digits(_ reader: inout JSONReader) -> Int {
            let from = reader.position
            while let byte = reader.peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                reader.position += 1
            }
            return reader.position - from
        }
        if peek == UInt8(ascii: "-") { position += 1 }
        let whole = digits(&self)
        guard whole > 0 else { throw error("expected a value") }
        guard whole == 1 || bytes[position - whole] != UInt8(ascii: "0") else {
            throw error("a number cannot start with 0")
        }
        if peek == UInt8(ascii: ".") {
            position += 1
            guard digits(&self) > 0 else { throw error("expected digits after '.'") }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            position += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { position += 1 }
            guard digits(&self) > 0 else { throw error("expected digits in the exponent") }
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }
}
