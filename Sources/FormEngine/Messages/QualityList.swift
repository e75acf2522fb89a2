/// A header whose members carry weights, `zh-CN, en;q=0.8` (RFC 9110 §12.4.2): `Accept-Language`,
/// and `Accept`, which the server reads the same way.
public enum QualityList {
    /// Calls `body` with each member's value (spaces trimmed, parameters dropped) as bytes and its
    /// `q` (1 when it has none or an unreadable one), in order; empty members are skipped.
    ///
    /// Walked byte by byte: a browser sends these headers with every request, and splitting them into
    /// strings of characters would cost more than the rest of the choice.
    public static func forEachMember(in header: String, _ body: (UnsafeBufferPointer<UInt8>, Double) -> Void) {
        var header = header
        header.withUTF8 { bytes in
            var start = 0
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: ",")) ?? bytes.count
                defer { start = end + 1 }
                let parameters = bytes[start..<end].firstIndex(of: UInt8(ascii: ";")) ?? end
                let value = trimmed(bytes, start..<parameters)
                guard !value.isEmpty else { continue }
                body(UnsafeBufferPointer(rebasing: bytes[value]), quality(bytes, parameters..<end))
            }
        }
    }

    /// The `q` among the parameters `bytes[range]` (`;q=0.8`); 1 when there is none.
    private static func quality(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double {
        var start = range.lowerBound
        while start < range.upperBound {
            let end = bytes[(start + 1)..<range.upperBound].firstIndex(of: UInt8(ascii: ";")) ?? range.upperBound
            let parameter = trimmed(bytes, (start + 1)..<end)
            // `q` is case-insensitive, like every parameter name.
            if parameter.count > 2, bytes[parameter.lowerBound] | 0x20 == UInt8(ascii: "q"),
                bytes[parameter.lowerBound + 1] == UInt8(ascii: "="),
                let value = Double(
                    String(
                        decoding: UnsafeBufferPointer(
                            rebasing: bytes[(parameter.lowerBound + 2)..<parameter.upperBound]),
                        as: UTF8.self))
            {
                return value
            }
            start = end
        }
        return 1
    }

    /// `range` without the spaces and tabs around it (HTTP's optional whitespace).
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var (lower, upper) = (range.lowerBound, range.upperBound)
        while lower < upper, bytes[lower] == UInt8(ascii: " ") || bytes[lower] == UInt8(ascii: "\t") { lower += 1 }
        while upper > lower, bytes[upper - 1] == UInt8(ascii: " ") || bytes[upper - 1] == UInt8(ascii: "\t") {
            upper -= 1
        }
        return lower..<upper
    }
}
