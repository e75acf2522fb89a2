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

    /// The pairs as `application/x-www-form-urlencoded` text (WHATWG URL §5.2, the serializer):
    /// `parse(urlencoded:)` reads it back to the same pairs. A page that must post back to the address
    /// it came from writes its query this way, from the decoded pairs.
    public var urlencoded: String {
        var bytes: [UInt8] = []
        for (offset, pair) in pairs.enumerated() {
            if offset > 0 { bytes.append(UInt8(ascii: "&")) }
            Self.encode(pair.name, into: &bytes)
            bytes.append(UInt8(ascii: "="))
            Self.encode(pair.value, into: &bytes)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let hex = Array("0123456789ABCDEF".utf8)

    private static func encode(_ text: String, into bytes: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"):
                bytes.append(byte)
            case UInt8(ascii: " "): bytes.append(UInt8(ascii: "+"))
            default: bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
    }

    /// Iterates the pairs in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { pairs.makeIterator() }

    public static func == (lhs: QueryParameters, rhs: QueryParameters) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs) { $0.name == $1.name && $0.value == $1.value }
    }

    /// Parses `application/x-www-form-urlencoded` text (WHATWG URL §5.1), strictly: malformed
    /// percent-encoding or invalid UTF-8 is an error rather than a silently altered value.
    public static func parse(urlencoded bytes: [UInt8]) -> QueryParameters? {
        var result = QueryParameters()
        guard forEachPair(urlencoded: bytes, { result.pairs.append(($0, $1)) }) else { return nil }
        return result
    }

    /// Calls `body` with each decoded pair of urlencoded `bytes`, in order, as `parse(urlencoded:)`
    /// reads them, without collecting them; false (after the pairs before it) at the first malformed one.
    /// A caller that keeps the pairs in its own shape saves the array; `body` owns each pair, so it
    /// can store it without a copy (a retain and a release per string).
    public static func forEachPair(
        urlencoded bytes: [UInt8], _ body: (consuming String, consuming String) -> Void
    ) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            do throws(RequestTarget.Failure) {
                try forEachPair(buffer, 0..<buffer.count, body)
                return true
            } catch {
                return false
            }
        }
    }

    static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>
    ) throws(RequestTarget.Failure) -> QueryParameters {
        var result = QueryParameters()
        try forEachPair(bytes, range) { result.pairs.append(($0, $1)) }
        return result
    }

    private static func forEachPair(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ body: (consuming String, consuming String) -> Void
    ) throws(RequestTarget.Failure) {
        var pairStart = range.lowerBound
        var equals: Int?
        var index = range.lowerBound
        // One walk finds each pair's end and its first `=`.
        while index <= range.upperBound {
            if index == range.upperBound || bytes[index] == UInt8(ascii: "&") {
                if index > pairStart {
                    let name = try RequestTarget.decode(bytes, pairStart..<(equals ?? index), plusIsSpace: true)
                    var value = ""
                    if let equals { value = try RequestTarget.decode(bytes, (equals + 1)..<index, plusIsSpace: true) }
                    body(name, value)
                }
                pairStart = index + 1
                equals = nil
            } else if equals == nil, bytes[index] == UInt8(ascii: "=") {
                equals = index
            }
            index += 1
        }
    }
}
