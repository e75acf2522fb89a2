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
/// The fields are kept as bytes in one buffer, each as its name's and value's lengths, then `name NUL
/// value NUL`: a browser sends a dozen fields with every request, and a string for each name and value
/// would cost an allocation apiece, where a handler reads two or three of them. A value becomes a
/// `String` when it is asked for; the NULs let libmicrohttpd read a response's fields in place. One
/// buffer, not a second list of positions: a request that has no fields (a static file's) carries
/// one array.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// Every field, back to back: 4 bytes of name length, 4 of value length (little-endian), the name,
    /// a NUL, the value, a NUL.
    private var storage: [UInt8] = []

    /// Where one field's name and value lie in `storage`.
    private struct Field {
        let name: Range<Int>
        let value: Range<Int>
    }

    private static let lengthBytes = 8

    /// No fields.
    public init() {}

    /// Fields from a literal, in the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { add(name, value) }
    }

    /// The fields in the order they were added.
    public var fields: [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        walk { stored, field in
            fields.append((Self.text(stored, field.name), Self.text(stored, field.value)))
            return true
        }
        return fields
    }

    /// The first value for `name`, compared case-insensitively; setting replaces every field of that name.
    public subscript(name: String) -> String? {
        get {
            var value: String?
            forEachValue(named: name) { bytes in
                value = String(decoding: bytes, as: UTF8.self)
                return false
            }
            return value
        }
        set {
            removeAll(named: name)
            if let newValue { add(name, newValue) }
        }
    }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        var values: [String] = []
        forEachValue(named: name) { bytes in
            values.append(String(decoding: bytes, as: UTF8.self))
            return true
        }
        return values
    }

    /// Appends a field, keeping any existing ones of the same name.
    public mutating func add(_ name: String, _ value: String) {
        var (name, value) = (name, value)
        name.withUTF8 { name in value.withUTF8 { value in append(name, value) } }
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool {
        var found = false
        forEachValue(named: name) { _ in
            found = true
            return false
        }
        return found
    }

    /// Whether there are no fields.
    public var isEmpty: Bool { storage.isEmpty }

    /// The number of fields. Counted, not stored: a header list that is one array is copied and
    /// destroyed as cheaply as an array, and every response and request carries one.
    public var count: Int {
        var count = 0
        walk { _, _ in
            count += 1
            return true
        }
        return count
    }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    /// Makes room for `count` fields, so that adding them does not regrow the buffer.
    mutating func reserveCapacity(_ count: Int) {
        // A browser's dozen fields take about 600 bytes, lengths included.
        storage.reserveCapacity(count * 48)
    }

    /// Appends a field from libmicrohttpd's C strings, without making strings of them.
    mutating func add(cName name: UnsafePointer<CChar>, cValue value: UnsafePointer<CChar>?) {
        append(Self.bytes(of: name), value.map(Self.bytes(of:)) ?? UnsafeBufferPointer(start: nil, count: 0))
    }

    /// Calls `body` with the bytes of each value for `name`, in order, without making strings of them,
    /// until it returns false.
    func forEachValue(named name: String, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
        var name = name
        name.withUTF8 { wanted in
            walk { stored, field in
                guard Self.namesMatch(stored, field.name, wanted) else { return true }
                return body(UnsafeBufferPointer(rebasing: stored[field.value]))
            }
        }
    }

    /// Calls `body` with each field's name and value as C strings, in order (what libmicrohttpd reads),
    /// until it returns false; returns the name it stopped at, nil when it saw every field.
    func forEachCField(_ body: (UnsafePointer<CChar>, UnsafePointer<CChar>) -> Bool) -> String? {
        var refused: String?
        walk { stored, field in
            let base = UnsafeRawPointer(stored.baseAddress!).assumingMemoryBound(to: CChar.self)
            guard body(base + field.name.lowerBound, base + field.value.lowerBound) else {
                refused = Self.text(stored, field.name)
                return false
            }
            return true
        }
        return refused
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

    /// Calls `body` with the buffer and each field in order, until it returns false.
    private func walk(_ body: (UnsafeBufferPointer<UInt8>, Field) -> Bool) {
        storage.withUnsafeBufferPointer { stored in
            var offset = 0
            while offset < stored.count {
                let nameCount = Self.length(stored, at: offset)
                let valueCount = Self.length(stored, at: offset + 4)
                let name = offset + Self.lengthBytes
                let value = name + nameCount + 1
                guard body(stored, Field(name: name..<(name + nameCount), value: value..<(value + valueCount))) else {
                    return
                }
                offset = value + valueCount + 1
            }
        }
    }

    private mutating func append(_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) {
        // The field is laid out on the stack and appended in one go: one growth check and one copy,
        // not one per part (every request's fields come through here).
        let count = Self.lengthBytes + name.count + 1 + value.count + 1
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { field in
            let base = UnsafeMutableRawPointer(field.baseAddress!)
            base.storeBytes(of: UInt32(truncatingIfNeeded: name.count).littleEndian, as: UInt32.self)
            base.storeBytes(of: UInt32(truncatingIfNeeded: value.count).littleEndian, toByteOffset: 4, as: UInt32.self)
            var end = Self.lengthBytes
            if let start = name.baseAddress { (field.baseAddress! + end).update(from: start, count: name.count) }
            end += name.count
            field[end] = 0
            end += 1
            if let start = value.baseAddress { (field.baseAddress! + end).update(from: start, count: value.count) }
            field[end + value.count] = 0
            storage.append(contentsOf: UnsafeBufferPointer(field))
        }
    }

    private mutating func removeAll(named name: String) {
        guard contains(name) else { return }
        let kept = fields.filter { !Self.namesMatch($0.name, name) }
        self = HTTPHeaders()
        for field in kept { add(field.name, field.value) }
    }

    private static func length(_ stored: UnsafeBufferPointer<UInt8>, at offset: Int) -> Int {
        Int(stored[offset]) | Int(stored[offset + 1]) << 8 | Int(stored[offset + 2]) << 16 | Int(stored[offset + 3])
            << 24
    }

    private static func text(_ stored: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: stored[range]), as: UTF8.self)
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
