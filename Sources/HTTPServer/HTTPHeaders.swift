#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An ordered list of header fields with case-insensitive lookup (RFC 9110 §5.1).
///
/// ```swift
/// var headers: HTTPHeaders = ["Content-Type": "text/html; charset=utf-8"]
/// headers.add("Vary", "Accept")
/// headers["content-type"]  // "text/html; charset=utf-8"
/// ```
///
/// The fields are kept as bytes in one buffer, each as `name NUL value NUL`: a browser sends a dozen
/// fields with every request, and a string for each name and value cost an allocation apiece, where
/// a handler reads two or three of them. A value becomes a `String` when it is asked for; the NULs let
/// libmicrohttpd read a response's fields in place.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// Every field's bytes, back to back.
    private var storage: [UInt8] = []
    /// Where each field lies in `storage`, in the order added.
    private var spans: [Span] = []

    /// One field: its name from `name`, its value from `value` up to `end` (each followed by a NUL).
    private struct Span: Sendable {
        let name: Int
        let value: Int
        let end: Int

        var nameRange: Range<Int> { name..<(value - 1) }
        var valueRange: Range<Int> { value..<end }
    }

    /// No fields.
    public init() {}

    /// Fields from a literal, in the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { add(name, value) }
    }

    /// The fields in the order they were added.
    public var fields: [(name: String, value: String)] {
        spans.map { (text(of: $0.nameRange), text(of: $0.valueRange)) }
    }

    /// The first value for `name`, compared case-insensitively; setting replaces every field of that name.
    public subscript(name: String) -> String? {
        get { firstSpan(named: name).map { text(of: $0.valueRange) } }
        set {
            removeAll(named: name)
            if let newValue { add(name, newValue) }
        }
    }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        var values: [String] = []
        forEachValue(named: name) { values.append(String(decoding: $0, as: UTF8.self)) }
        return values
    }

    /// Appends a field, keeping any existing ones of the same name.
    public mutating func add(_ name: String, _ value: String) {
        let start = storage.count
        storage.append(contentsOf: name.utf8)
        storage.append(0)
        let valueStart = storage.count
        storage.append(contentsOf: value.utf8)
        spans.append(Span(name: start, value: valueStart, end: storage.count))
        storage.append(0)
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool { firstSpan(named: name) != nil }

    /// The number of fields.
    public var count: Int { spans.count }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    /// Makes room for `count` fields, so that adding them does not regrow the lists.
    mutating func reserveCapacity(_ count: Int) {
        spans.reserveCapacity(count)
        // A browser's dozen fields take about 600 bytes.
        storage.reserveCapacity(count * 32)
    }

    /// Appends a field from libmicrohttpd's C strings, without making strings of them.
    mutating func add(cName name: UnsafePointer<CChar>, cValue value: UnsafePointer<CChar>?) {
        let start = storage.count
        storage.append(contentsOf: Self.bytes(of: name))
        storage.append(0)
        let valueStart = storage.count
        if let value { storage.append(contentsOf: Self.bytes(of: value)) }
        spans.append(Span(name: start, value: valueStart, end: storage.count))
        storage.append(0)
    }

    /// Calls `body` with the bytes of every value for `name`, in order, without making strings of them.
    func forEachValue(named name: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var name = name
        name.withUTF8 { wanted in
            storage.withUnsafeBufferPointer { stored in
                for span in spans where Self.namesMatch(stored, span.nameRange, wanted) {
                    body(UnsafeBufferPointer(rebasing: stored[span.valueRange]))
                }
            }
        }
    }

    /// Calls `body` with each field's name and value as C strings, in order (what libmicrohttpd reads),
    /// until it returns false; returns the name it stopped at, nil when it saw every field.
    func forEachCField(_ body: (UnsafePointer<CChar>, UnsafePointer<CChar>) -> Bool) -> String? {
        storage.withUnsafeBytes { raw in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: CChar.self) else { return nil }
            for span in spans where !body(base + span.name, base + span.value) {
                return String(cString: base + span.name)
            }
            return nil
        }
    }

    /// ASCII case-insensitive comparison without allocating: header names are tokens (RFC 9110 §5.1).
    static func namesMatch(_ a: String, _ b: String) -> Bool {
        // The length is known without reading the text, and most names differ in it.
        guard a.utf8.count == b.utf8.count else { return false }
        var a = a
        var b = b
        return a.withUTF8 { x in b.withUTF8 { y in namesMatch(x, 0..<x.count, y) } }
    }

    /// Whether `stored[range]` is `wanted`, ASCII case-insensitively.
    private static func namesMatch(
        _ stored: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ wanted: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        guard range.count == wanted.count else { return false }
        for (offset, index) in range.enumerated()
        where asciiLowercased(stored[index]) != asciiLowercased(wanted[offset]) {
            return false
        }
        return true
    }

    private func firstSpan(named name: String) -> Span? {
        var name = name
        return name.withUTF8 { wanted in
            storage.withUnsafeBufferPointer { stored in
                spans.first { Self.namesMatch(stored, $0.nameRange, wanted) }
            }
        }
    }

    private mutating func removeAll(named name: String) {
        guard contains(name) else { return }
        let kept = fields.filter { !Self.namesMatch($0.name, name) }
        self = HTTPHeaders()
        for field in kept { add(field.name, field.value) }
    }

    private func text(of range: Range<Int>) -> String {
        storage.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    /// The bytes of a C string, up to its NUL: typed, so appending them is one copy, not a loop.
    private static func bytes(of string: UnsafePointer<CChar>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: UnsafeRawPointer(string).assumingMemoryBound(to: UInt8.self), count: strlen(string))
    }
}

/// Lowercases an ASCII letter and leaves every other byte alone.
@inline(__always)
func asciiLowercased(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
}
