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
        // Most answers (a submission's payload, its errors) fit: one allocation, no regrowth.
        output.reserveCapacity(1024)
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
        // Native strings (small ones included) are contiguous UTF-8: scan them in place.
        if text.utf8.withContiguousStorageIfAvailable({ writeEscaped($0, to: &output) }) == nil {
            Array(text.utf8).withUnsafeBufferPointer { writeEscaped($0, to: &output) }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// Bytes 0x00–0x3F that need an escape: controls, `"`, `&`, `<` and `>` (the backslash, 0x5C, is tested apart).
    private static let escapedBelow0x40: UInt64 =
        0xFFFF_FFFF | 1 << 0x22 | 1 << 0x26 | 1 << 0x3C | 1 << 0x3E

    /// Whether `byte` must be escaped in a JSON string written here.
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x40 ? escapedBelow0x40 & (1 << UInt64(byte)) != 0 : byte == UInt8(ascii: "\\")
    }

    /// Copies runs that need no escaping whole (most payload text is one such run) and escapes the rest.
    private static func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        var runStart = 0
        for index in bytes.indices where needsEscape(bytes[index]) {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            writeEscape(bytes[index], to: &output)
            runStart = index + 1
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }

    /// The escape of one byte that `needsEscape`.
    private static func writeEscape(_ byte: UInt8, to output: inout [UInt8]) {
        let hex: StaticString = "0123456789abcdef"
        switch byte {
        case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x22])
        case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
        case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
        case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
        case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
        default:
            output.append(contentsOf: [
                0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex.utf8Start[Int(byte >> 4)], hex.utf8Start[Int(byte & 15)],
            ])
        }
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.bytes == rhs.bytes }
    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }

    /// The value under `key` of an object (the first, should there be several); nil otherwise.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }
}
