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
}
