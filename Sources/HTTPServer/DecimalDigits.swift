/// Writes a number's decimal digits into a buffer, for text built byte by byte on a hot path (the
/// access-log line, a peer's address).
public enum DecimalDigits {
    /// Writes `value`'s digits into `buffer` from `index` on and returns the index after the last
    /// one. The buffer must have room for them (20 bytes at most).
    ///
    /// The digits are counted first and written from the last one back: no recursion, and only
    /// divisions by the constant 10, which compile to multiplications.
    public static func write(_ value: UInt, into buffer: UnsafeMutableBufferPointer<UInt8>, at index: Int) -> Int {
        // Wrapping arithmetic: a digit is below 10 and at most 20 of them are written, so no check
        // can fail, and the checked forms cost as much as the digits.
        var digits = 1
        var probe = value
        while probe >= 10 {
            probe /= 10
            digits &+= 1
        }
        let end = index &+ digits
        var position = end
        var rest = value
        repeat {
            position &-= 1
            buffer[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        } while rest > 0
        return end
    }
}
