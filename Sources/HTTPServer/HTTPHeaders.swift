/// An ordered list of header fields with case-insensitive lookup (RFC 9110 §5.1).
///
/// ```swift
/// var headers: HTTPHeaders = ["Content-Type": "text/html; charset=utf-8"]
/// headers.add("Vary", "Accept")
/// headers["content-type"]  // "text/html; charset=utf-8"
/// ```
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields in the order they were added.
    public private(set) var fields: [(name: String, value: String)]

    /// No fields.
    public init() { fields = [] }

    /// Fields from a literal, in the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The first value for `name`, compared case-insensitively; setting replaces every field of that name.
    public subscript(name: String) -> String? {
        get { fields.first { Self.namesMatch($0.name, name) }?.value }
        set {
            fields.removeAll { Self.namesMatch($0.name, name) }
            if let newValue { fields.append((name: name, value: newValue)) }
        }
    }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    /// Makes room for `count` fields, so that adding them does not regrow the list.
    mutating func reserveCapacity(_ count: Int) { fields.reserveCapacity(count) }

    /// Appends a field, keeping any existing ones of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { Self.namesMatch($0.name, name) }
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    /// ASCII case-insensitive comparison without allocating: header names are tokens (RFC 9110 §5.1).
    static func namesMatch(_ a: String, _ b: String) -> Bool {
        // The length is known without reading the text, and most names differ in it.
        guard a.utf8.count == b.utf8.count else { return false }
        var a = a
        var b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                guard x.count == y.count else { return false }
                for i in 0..<x.count where asciiLowercased(x[i]) != asciiLowercased(y[i]) { return false }
                return true
            }
        }
    }
}

/// Lowercases an ASCII letter and leaves every other byte alone.
@inline(__always)
func asciiLowercased(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
}
