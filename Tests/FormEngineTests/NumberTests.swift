import FormEngine
import FormModel
import Testing

/// Integer and decimal rows take any notation of the number input and keep the value exactly, or
/// refuse it with a message that says why: never rounded, clamped or truncated.
@Suite struct NumberTests {
    /// A form with one integer row and one decimal row, neither with limits of its own.
    static let engine: FormEngine = {
        let rows = [Row(.integer, tag: "count", title: "Count"), Row(.decimal, tag: "amount", title: "Amount")]
        do {
            return FormEngine(
                form: try FormCompiler().compile(Form(id: "numbers", sections: [Section(rows: rows)]), file: "t"))
        } catch { fatalError("the numbers form must compile: \(error)") }
    }()

    /// What `count` becomes for `sent` posted as text: its payload JSON, or the error code.
    static func count(_ sent: String) -> String {
        let verdict = engine.evaluate(Fixtures.post([("count", sent)]))
        return verdict.errors.first?.code ?? verdict.httpParameters["count"]?.text ?? "absent"
    }

    @Test(
        arguments: [
            ("12", "12"), ("+7", "7"), ("-12", "-12"), ("1e3", "1000"), ("10.0", "10"), ("1E1", "10"),
            ("1e+2", "100"), ("+1e0", "1"), ("100e-2", "1"), ("0.5e1", "5"), ("12.50e1", "125"), ("-0", "0"),
            (".0", "0"), ("0e99999999999999999999", "0"), ("007", "7"), (" 1e3 ", "1000"),
            ("9223372036854775807", "9223372036854775807"), ("-9223372036854775808", "-9223372036854775808"),
            ("9.223372036854775807e18", "9223372036854775807"), ("-9.223372036854775808E18", "-9223372036854775808"),
            ("92233720368547758070e-1", "9223372036854775807"), ("1e18", "1000000000000000000"),
        ])
    func wholeNumbersInAnyNotationAreAccepted(sent: String, payload: String) {
        #expect(Self.count(sent) == payload, "\(sent)")
    }

    @Test(
        arguments: [
            ("1.5", "notAnInteger"), ("1e-1", "notAnInteger"), ("0.11e1", "notAnInteger"), ("10.01e1", "notAnInteger"),
            ("-1e-400", "notAnInteger"), ("abc", "notAnInteger"), ("1,5", "notAnInteger"), ("1.", "notAnInteger"),
            ("1e", "notAnInteger"), ("0x10", "notAnInteger"), ("Infinity", "notAnInteger"),
            ("9223372036854775808", "integerOutOfRange"), ("-9223372036854775809", "integerOutOfRange"),
            ("99999999999999999999", "integerOutOfRange"), ("1e19", "integerOutOfRange"),
            ("9.223372036854775808e18", "integerOutOfRange"), ("-1e99999999999999999999", "integerOutOfRange"),
            ("18446744073709551616", "integerOutOfRange"),
        ])
    func fractionsAndNumbersBeyondIntAreRefused(sent: String, code: String) {
        #expect(Self.count(sent) == code, "\(sent)")
    }

    @Test func jsonNumbersInAnyNotationAreIntegers() throws {
        let verdict = Self.engine.evaluate(try JSONBody.parse(Array(#"{"count":1e3}"#.utf8)))
        #expect(verdict.httpParameters["count"] == .integer(1000))
        let fraction = Self.engine.evaluate(try JSONBody.parse(Array(#"{"count":2.5}"#.utf8)))
        #expect(fraction.codes == ["count:notAnInteger"])
    }

    @Test func outOfRangeSaysSoInBothLanguages() {
        let fields = Fixtures.post([("count", "1e19")])
        #expect(
            Self.engine.evaluate(fields).errors.map(\.message) == [
                "Count must be between -9223372036854775808 and 9223372036854775807"
            ])
        #expect(
            Self.engine.evaluate(fields, locale: "zh-Hans").errors.map(\.message) == [
                "Count必须在 -9223372036854775808 到 9223372036854775807 之间"
            ])
    }

    /// The event form's `guests` (an integer from 0 to 100), as the number input posts `1e1`.
    @Test func eventGuestsTakeTheNumberInputsNotation() {
        let verdict = Fixtures.engine("event").evaluate(Fixtures.event(["guests": "1e1"]))
        #expect(verdict.isValid)
        #expect(verdict.httpParameters["guests"] == .integer(10))
        #expect(Fixtures.engine("event").evaluate(Fixtures.event(["guests": "1e3"])).codes == ["guests:max"])
    }

    /// What `amount` becomes for `sent` posted as text: its payload JSON, or the error code.
    static func amount(_ sent: String) -> String {
        let verdict = engine.evaluate(Fixtures.post([("amount", sent)]))
        return verdict.errors.first?.code ?? verdict.httpParameters["amount"]?.text ?? "absent"
    }

    static let thirtyEightDigits = "12345678901234567890123456789012345678"

    /// Each kept exactly: the payload writes the value's every digit.
    @Test(
        arguments: [
            ("3.5", "3.5"), ("+1.5", "1.5"), ("-0", "0"), ("0e999999", "0"), ("0.10", "0.1"), ("7e-2", "0.07"),
            (thirtyEightDigits, thirtyEightDigits), ("-" + thirtyEightDigits, "-" + thirtyEightDigits),
            ("0." + thirtyEightDigits, "0." + thirtyEightDigits), (thirtyEightDigits + "e-128", nil),
            ("1" + String(repeating: "0", count: 38), "1" + String(repeating: "0", count: 38)),
            ("1." + String(repeating: "0", count: 60), "1"), (String(repeating: "0", count: 60) + "1.5", "1.5"),
            ("1e127", "1" + String(repeating: "0", count: 127)), ("1e128", "1" + String(repeating: "0", count: 128)),
            ("0.01e130", "1" + String(repeating: "0", count: 128)), ("1e164", "1" + String(repeating: "0", count: 164)),
            ("9.9e163", "99" + String(repeating: "0", count: 162)),
            ("1e-128", "0." + String(repeating: "0", count: 127) + "1"),
            ("-100e-130", "-0." + String(repeating: "0", count: 127) + "1"),
        ] as [(String, String?)])
    func decimalsAreKeptExactly(sent: String, payload: String?) throws {
        let verdict = Self.engine.evaluate(Fixtures.post([("amount", sent)]))
        #expect(verdict.isValid, "\(sent)")
        let value = try #require(verdict.values[1], "\(sent)")
        guard case .decimal(let decimal) = value else {
            Issue.record("\(sent) is not a decimal")
            return
        }
        if let payload { #expect(verdict.httpParameters["amount"]?.text == payload, "\(sent)") }
        // The exact value, whatever the spelling: the significand and the exponent agree with the text's.
        let parts = try #require(NumberSyntax.parts(sent, allowingPlusSign: true))
        let written = try #require(NumberSyntax.parts("\(decimal)"))
        #expect(written.digitCount == parts.digitCount, "\(sent)")
        #expect(parts.digitCount == 0 || written.exponent == parts.exponent, "\(sent)")
    }

    @Test(
        arguments: [
            "12345678901234567890123456789012345678901234567890", thirtyEightDigits + "9", "1." + thirtyEightDigits,
            "1e165", "-1e200", "1e-129", "1e-130", "1.5e-128", "-1e99999999999999999999", "1e-99999999999999999999",
            thirtyEightDigits + "e127" + "0",
        ])
    func decimalsThatCannotBeKeptExactlyAreRefused(sent: String) {
        #expect(Self.amount(sent) == "inexactDecimal", "\(sent)")
    }

    @Test(arguments: ["abc", "1,5", "NaN", "Infinity", "1e", ".", "0x1p3"])
    func textThatIsNoNumberIsNotANumber(sent: String) {
        #expect(Self.amount(sent) == "notANumber", "\(sent)")
    }

    @Test func inexactDecimalSaysSoInBothLanguages() {
        let fields = Fixtures.post([("amount", "1e200")])
        #expect(
            Self.engine.evaluate(fields).errors.map(\.message) == [
                "Amount cannot be kept exactly: use at most 38 significant digits and a size between 1e-128 and 1e165"
            ])
        #expect(
            Self.engine.evaluate(fields, locale: "zh-Hans").errors.map(\.message) == [
                "Amount无法精确保存：最多 38 位有效数字，绝对值须介于 1e-128 与 1e165 之间"
            ])
    }

    @Test func jsonNumbersAreDecimalsExactly() throws {
        let body = #"{"amount":12345678901234567890123456789012345678901234567890}"#
        #expect(Self.engine.evaluate(try JSONBody.parse(Array(body.utf8))).codes == ["amount:inexactDecimal"])
        let exact = Self.engine.evaluate(try JSONBody.parse(Array(#"{"amount":0.1e1}"#.utf8)))
        #expect(exact.httpParameters["amount"]?.text == "1")
    }
}
