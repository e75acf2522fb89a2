import FormModel
import Testing

/// The number input's notation, checked and taken apart.
@Suite struct NumberSyntaxTests {
    @Test(arguments: ["0", "-12", "3.5", ".5", "1e3", "1E-3", "0.10", "007"])
    func acceptedNotation(text: String) {
        #expect(NumberSyntax.isFloatingPoint(text))
    }

    @Test(arguments: ["", "-", ".", "1.", "1e", "1e+", "+1", "1,5", "1 000", "NaN", "Infinity", "0x1", "1e3.5", " 1"])
    func refusedNotation(text: String) {
        #expect(!NumberSyntax.isFloatingPoint(text))
    }

    @Test func aPlusSignOnlyWhenAllowed() {
        #expect(NumberSyntax.isFloatingPoint("+1", allowingPlusSign: true))
        #expect(!NumberSyntax.isFloatingPoint("++1", allowingPlusSign: true))
    }

    /// (text, negative, significant digits, exponent, significand).
    @Test(
        arguments: [
            ("10.0", false, 1, 1, 1 as UInt64?), ("1e1", false, 1, 1, 1), ("100e-1", false, 1, 1, 1),
            ("-0.050", true, 1, -2, 5), ("1200", false, 2, 2, 12), ("0", false, 0, 0, 0), ("-0.000e5", true, 0, 0, 0),
            ("10203", false, 5, 0, 10203), ("1.0203e2", false, 5, -2, 10203),
            ("9999999999999999999", false, 19, 0, 9_999_999_999_999_999_999),
            ("12345678901234567890", false, 19, 1, 1_234_567_890_123_456_789),
            ("12345678901234567891", false, 20, 0, nil), ("1e99999999999999999999", false, 1, 1_000_000_000, 1),
            ("1e-99999999999999999999", false, 1, -1_000_000_000, 1),
        ] as [(String, Bool, Int, Int, UInt64?)])
    func partsOfANumber(text: String, negative: Bool, digitCount: Int, exponent: Int, significand: UInt64?) throws {
        let parts = try #require(NumberSyntax.parts(text))
        #expect(parts.negative == negative)
        #expect(parts.digitCount == digitCount)
        #expect(parts.exponent == exponent)
        #expect(parts.significand == significand)
    }
}
