/// JSON to send: objects keep their keys in the order written, numbers keep their exact text.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number's JSON text (`12`, `3.50`), so decimals are sent exactly as decoded.
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Key-value pairs in order.
    case object([(String, JSONValue)])

    /// An integer.
    public static func integer(_ value: Int) -> JSONValue { .number(String(value)) }

    /// The value as compact JSON bytes.
    public var bytes: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(to: &output)
        return output
    }

    /// The value as compact JSON text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends the value's JSON to `output`.
    public func write(to output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let text): output.append(contentsOf: text.utf8)
        case .string(let text): Self.writeString(text, to: &output)
        case .array(let items):
            output.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                item.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let pairs):
            output.append(UInt8(ascii: "{"))
            for (index, (key, value)) in pairs.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.writeString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                value.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// A JSON string: quotes, backslashes and control characters escaped (RFC 8259 §7), and `<`, `>`,
    /// `&` too, so the text can sit inside an HTML `<script>` without ending it.
    static func writeString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // Most payload text needs no escaping: copy it whole.
        if !text.utf8.contains(where: {
            $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x3C || $0 == 0x3E || $0 == 0x26
        }) {
            output.append(contentsOf: text.utf8)
            output.append(UInt8(ascii: "\""))
            return
        }
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20, UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"):
                output.append(contentsOf: [
                    0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 15)],
                ])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.bytes == rhs.bytes }
    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }

    /// The value under `key` of an object (the first, should there be several); nil otherwise.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }
}
