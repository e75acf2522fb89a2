/// Decoded `name=value` pairs of a query string or an urlencoded body, in the order sent.
///
/// A name may repeat (`t=1&t=2`); `subscript` gives the first, `values(for:)` all of them.
public struct QueryParameters: Sendable, Equatable, Sequence {
    /// The pairs in order.
    public private(set) var pairs: [(name: String, value: String)]

    /// No parameters.
    public init() { pairs = [] }

    /// Parameters from pairs, in order.
    public init(_ pairs: [(name: String, value: String)]) { self.pairs = pairs }

    /// The first value for `name`.
    public subscript(name: String) -> String? { pairs.first { $0.name == name }?.value }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] { pairs.filter { $0.name == name }.map(\.value) }

    /// Whether there are no parameters.
    public var isEmpty: Bool { pairs.isEmpty }

    /// Iterates the pairs in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { pairs.makeIterator() }

    public static func == (lhs: QueryParameters, rhs: QueryParameters) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs) { $0.name == $1.name && $0.value == $1.value }
    }

    /// Parses `application/x-www-form-urlencoded` text (WHATWG URL §5.1), strictly: malformed
    /// percent-encoding or invalid UTF-8 is an error rather than a silently altered value.
    public static func parse(urlencoded bytes: [UInt8]) -> QueryParameters? {
        bytes.withUnsafeBufferPointer { buffer in try? parse(buffer, 0..<buffer.count) }
    }

    static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>
    ) throws(RequestTarget.Failure) -> QueryParameters {
        var result = QueryParameters()
        var pairStart = range.lowerBound
        var index = range.lowerBound
        while index <= range.upperBound {
            if index == range.upperBound || bytes[index] == UInt8(ascii: "&") {
                if index > pairStart {
                    let pair = pairStart..<index
                    let equals = bytes[pair].firstIndex(of: UInt8(ascii: "="))
                    let name = try RequestTarget.decode(bytes, pairStart..<(equals ?? index), plusIsSpace: true)
                    var value = ""
                    if let equals { value = try RequestTarget.decode(bytes, (equals + 1)..<index, plusIsSpace: true) }
                    result.pairs.append((name: name, value: value))
                }
                pairStart = index + 1
            }
            index += 1
        }
        return result
    }
}
