import Foundation
import Testing

@testable import FormPredicate

/// Patterns and conditions cost at most what a budget allows, and patterns that expand past the program
/// limit are refused when compiled, with the limit in the message.
@Suite struct EvaluationBudgetTests {
    @Test(arguments: [#"^(\w+\s?){1,500}$"#, "((((a*)*)*)*){1000}b", "[0-9]{1,1000}[a-z]{1,1000}"])
    func aPatternThatExpandsPastTheLimitIsRefusedNamingTheLimit(pattern: String) {
        #expect {
            try SafeRegex(pattern)
        } throws: { error in
            "\(error)".contains("pattern too large: over \(SafeRegex.maximumProgramSize) instructions")
        }
    }

    @Test func aPatternJustUnderTheLimitCompiles() throws {
        #expect(SafeRegex.maximumProgramSize == 2_000)
        #expect(try SafeRegex("[0-9]{1,999}").matches(String(repeating: "7", count: 999)))
    }

    @Test func aMatchWithinTheBudgetAnswersAsWithoutOne() throws {
        let regex = try SafeRegex(#"^(\w+\s?){1,250}$"#)
        let budget = EvaluationBudget(steps: 10_000_000)
        #expect(try regex.matches("one two three", budget: budget))
        #expect(try !regex.matches("one, two", budget: budget))
        #expect(budget.remaining < budget.limit && !budget.isSpent)
    }

    @Test func aLongTextSpendsTheBudgetAndTheBudgetStaysSpent() throws {
        let regex = try SafeRegex(#"^(\w+\s?){1,250}$"#)
        let budget = EvaluationBudget(steps: 1_000_000)
        // Each character advances hundreds of threads: 100,000 of them would take tens of millions of steps.
        #expect(throws: EvaluationBudget.Spent.self) {
            try regex.matches(String(repeating: "a", count: 100_000), budget: budget)
        }
        #expect(budget.isSpent)
        #expect(throws: EvaluationBudget.Spent.self) { try regex.matches("a", budget: budget) }
        // Without a budget the same pattern still answers, as `check` and the command line use it.
        #expect(regex.matches(String(repeating: "a", count: 300)))
    }

    @Test func aComparisonTakesAStepAndOnePerByteOfItsStrings() throws {
        let equal = try Predicate("$a == $b")
        let budget = EvaluationBudget(steps: 100)
        #expect(try !equal.evaluate(["a": "abc", "b": "abcd"], budget: budget))
        #expect(budget.remaining == 100 - 1 - 3 - 4)
        let long = String(repeating: "a", count: 10_000)
        #expect(throws: PredicateEvaluationError.self) {
            try equal.evaluate(["a": .string(long), "b": .string(long)], budget: budget)
        }
        #expect(budget.isSpent)
    }

    @Test(arguments: ["$a MATCHES '(a|b)*c'", "$a LIKE '*b*b*b*c'", "ANY $list MATCHES '(a|b)*c'"])
    func aConditionOverLongValuesThrowsBudgetSpent(source: String) throws {
        let predicate = try Predicate(source)
        let long = String(repeating: "ab", count: 200_000)
        let budget = EvaluationBudget(steps: 100_000)
        #expect {
            try predicate.evaluate(["a": .string(long), "list": .array([.string(long)])], budget: budget)
        } throws: { error in
            (error as? PredicateEvaluationError)?.code == .budgetSpent
        }
        #expect(budget.isSpent)
        // Unbounded, the same condition answers.
        #expect(try !predicate.evaluate(["a": .string(long), "list": .array([.string(long)])]))
    }
}
