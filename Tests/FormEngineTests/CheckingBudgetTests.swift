import FormEngine
import FormModel
import FormPredicate
import Testing

/// A submission's conditions and patterns share one budget of steps: a value too long for the patterns
/// that read it refuses the submission as a whole (`tooLongToCheck`), and a value over its row's length
/// limit runs no pattern at all.
@Suite struct CheckingBudgetTests {
    /// `name` has a costly pattern; `code` the same pattern and `maxLength: 10`; `note` is hidden by a
    /// MATCHES over `name`.
    static func engine() throws -> FormEngine {
        let costly = #"^(\w+\s?){1,250}$"#
        var name = Row(.text, tag: "name", title: "Name")
        name.validators = [ValidatorSpec(.regex(costly))]
        var code = Row(.text, tag: "code", title: "Code")
        code.maxLength = 10
        code.validators = [ValidatorSpec(.regex(costly)), ValidatorSpec(.regex("[0-9]+"))]
        var note = Row(.text, tag: "note", title: "Note")
        note.hidden = .predicate("$name MATCHES '(a|b)*c'")
        let form = Form(id: "costly", title: "Costly", sections: [Section(rows: [name, code, note])])
        return FormEngine(form: try FormCompiler().compile(form, file: "test"))
    }

    @Test func aShortValueIsJudgedAsUsualWithinTheBudget() throws {
        let verdict = try Self.engine().evaluate(Fixtures.post([("name", "Ada Lovelace"), ("code", "x y")]))
        #expect(verdict.codes == ["code:regex"])
        #expect(!verdict.spentBudget)
    }

    @Test func aLongValueForACostlyPatternRefusesTheWholeSubmission() throws {
        // A smaller budget than the server's, spent the same way in a tenth of the time.
        let long = String(repeating: "a", count: 100_000)
        let verdict = try Self.engine().evaluate(Fixtures.post([("name", long)]), budget: 1_000_000)
        #expect(verdict.spentBudget)
        // About the form, not the row: the row's pattern neither passed nor failed.
        #expect(verdict.codes == [":tooLongToCheck"])
        #expect(verdict.errors.first?.row == nil)
        #expect(
            verdict.errors.first?.message
                == "Some answers are too long to be checked: shorten the longest and send the form again")
        let chinese = try Self.engine().evaluate(Fixtures.post([("name", long)]), locale: "zh-Hans", budget: 1_000_000)
        #expect(chinese.errors.first?.message == "部分回答太长，无法检查：请缩短最长的回答后重新提交")
    }

    @Test func aSmallerBudgetIsSpentSoonerAndTheSameValuesPassWithTheFullOne() throws {
        let fields = Fixtures.post([("name", String(repeating: "a", count: 1_000))])
        let engine = try Self.engine()
        #expect(engine.evaluate(fields, budget: 100_000).codes == [":tooLongToCheck"])
        #expect(engine.evaluate(fields).isValid)
    }

    @Test func aConditionThatSpendsTheBudgetRefusesTooAndIsNotLoggedAsTheAuthorsFailure() throws {
        // `name` passes its own pattern cheaply (one long word fails at once on the comma), but the
        // hidden condition's MATCHES runs over all of it.
        let verdict = try Self.engine().evaluate(
            Fixtures.post([("name", "," + String(repeating: "ab", count: 500_000))]), budget: 1_000_000)
        #expect(verdict.spentBudget)
        #expect(verdict.codes.contains(":tooLongToCheck"))
        #expect(verdict.conditionFailures.isEmpty)
    }

    @Test func aValueOverItsLengthLimitRunsNoPattern() throws {
        // Ten steps would not even start a pattern: the verdict names the length alone, budget untouched.
        let verdict = try Self.engine().evaluate(
            Fixtures.post([("code", String(repeating: "a", count: 50_000))]), budget: 10)
        #expect(verdict.codes == ["code:maxLength"])
        #expect(!verdict.spentBudget)
    }
}
