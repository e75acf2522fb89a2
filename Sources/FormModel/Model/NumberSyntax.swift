/// The one number notation Formwright reads and HTML's number input writes (HTML §2.3.4.3, "valid
/// floating-point number"): `-12`, `3.5`, `.5`, `1e3`; no grouping, no comma decimals, no `NaN`.
/// The server's decoding and the renderer's choice of input type both ask here, so they cannot drift.
public enum NumberSyntax {
    /// `-?(digits(.digits)?|.digits)([eE][+-]?digits)?`, scanned in one pass. A leading `+` is HTML's
    /// syntax too only when `allowingPlusSign` (what the server accepts; an `<input>`'s value may not).
    public static func isFloatingPoint(_ text: String, allowingPlusSign: Bool = false) -> Bool {
        parts(text, allowingPlusSign: allowingPlusSign) != nil
    }

    /// A number in this notation taken apart, so that it can be converted exactly or refused: its value
    /// is ± `significand` × 10^`exponent`, the significand without leading or trailing zeros.
    /// `10.0`, `1e1` and `100e-1` all have significand 1 and exponent 1.
    public struct Parts: Sendable, Hashable {
        /// Whether it starts with `-` (`-0` too).
        public let negative: Bool
        /// How many significant digits it has, from its first non-zero digit to its last; 0 for zero.
        public let digitCount: Int
        /// The power of ten of its last significant digit (0 for zero). An exponent written with more
        /// digits than any number could need is clamped to ±`exponentBound`.
        public let exponent: Int
        /// The significant digits as a number, when there are at most 19 (all `UInt64` holds).
        public let significand: UInt64?
    }

    /// Where a written exponent is clamped: far beyond any number a row can hold, and far from
    /// overflowing when the digits' count is added.
    public static let exponentBound = 1_000_000_000

    /// `text` taken apart, or nil when it is not in the notation (`isFloatingPoint`).
    public static func parts(_ text: String, allowingPlusSign: Bool = false) -> Parts? {
        // The bytes in place: a native string is contiguous UTF-8, so nothing is copied.
        var text = text
        return text.withUTF8 { scan($0, allowingPlusSign: allowingPlusSign) }
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, allowingPlusSign: Bool) -> Parts? {
        var index = 0
        var digitCount = 0
        var zerosSinceLast = 0  // zeros after the last non-zero digit: trailing ones, unless one follows
        var significand: UInt64 = 0
        var fractionDigits = 0
        /// Reads a run of mantissa digits; returns how many there were.
        func digits(fraction: Bool) -> Int {
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                let digit = bytes[index] &- 0x30
                index += 1
                if fraction { fractionDigits += 1 }
                if digit == 0 {
                    if digitCount > 0 { zerosSinceLast += 1 }  // a leading zero is not significant
                    continue
                }
                digitCount += zerosSinceLast + 1
                if digitCount <= 19 {
                    // At most 19 digits in all: the multiplication cannot overflow.
                    for _ in 0..<zerosSinceLast { significand &*= 10 }
                    significand = significand &* 10 &+ UInt64(digit)
                }
                zerosSinceLast = 0
            }
            return index - start
        }
        var negative = false
        if index < bytes.count,
            bytes[index] == UInt8(ascii: "-") || (allowingPlusSign && bytes[index] == UInt8(ascii: "+"))
        {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        let whole = digits(fraction: false)
        var fraction = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            fraction = digits(fraction: true)
            guard fraction > 0 else { return nil }
        }
        guard whole + fraction > 0 else { return nil }
        var written = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            var exponentNegative = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                written = min(written * 10 + Int(bytes[index] &- 0x30), exponentBound)
                index += 1
            }
            guard index > start else { return nil }
            if exponentNegative { written = -written }
        }
        guard index == bytes.count else { return nil }
        guard digitCount > 0 else { return Parts(negative: negative, digitCount: 0, exponent: 0, significand: 0) }
        return Parts(
            negative: negative, digitCount: digitCount, exponent: written - fractionDigits + zerosSinceLast,
            significand: digitCount <= 19 ? significand : nil)
    }
}
