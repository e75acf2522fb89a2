import Foundation
import Testing

@testable import FormPredicate

@Suite("Nesting limits and pathological input")
struct RobustnessTests {
    @Test func deepParenthesesStopAtTheLimitWithAColumn() throws {
        let source = String(repeating: "(", count: 100) + "$x == 1" + String(repeating: ")", count: 100)
        let error = try #require(Fixtures.parseError(source))
        #expect(error.code == .nestingTooDeep)
        #expect(error.column == 65)
        #expect(error.description.contains("64"))
    }

    @Test func nestingWithinTheLimitParses() throws {
        let source = String(repeating: "(", count: 30) + "$x == 1" + String(repeating: ")", count: 30)
        #expect(try Predicate(source).evaluate(["x": 1]))
    }

    @Test func deepNotChainsAndMinusesAreLimited() {
        #expect(Fixtures.parseError(String(repeating: "NOT ", count: 10_000) + "$x == 1")?.code == .nestingTooDeep)
        #expect(Fixtures.parseError("$x == " + String(repeating: "-", count: 10_000) + "1")?.code == .nestingTooDeep)
        #expect(Fixtures.parseError("$x == " + String(repeating: "{", count: 10_000))?.code == .nestingTooDeep)
        #expect(Fixtures.parseError("$x" + String(repeating: "[0]", count: 10_000) + " == 1")?.code == .nestingTooDeep)
    }

    @Test func longArithmeticChainsAreLimitedNotRecursedOn() {
        let source = "$x == 1" + String(repeating: " + 1", count: 10_000)
        #expect(Fixtures.parseError(source)?.code == .nestingTooDeep)
    }

    @Test func longLogicalChainsStayFlat() throws {
        let source = Array(repeating: "$x == 1", count: 5_000).joined(separator: " OR ")
        #expect(try Predicate(source).evaluate(["x": 1]))
    }

    @Test func deeplyNegatedValuesPrintWithinTheLimit() throws {
        // Printed as `-(-(...))`, each minus would take two levels of nesting and the printed form not parse.
        let source = "$x == " + String(repeating: "-", count: 60) + "nil"
        let printed = try Predicate(source).description
        #expect(try Predicate(printed).description == printed)
    }

    @Test func negativeZeroKeepsItsSignWhenPrinted() throws {
        // Found by the fuzzer: `-0` printed as `0`, and `1 / -0` is -infinity, not +infinity.
        let predicate = try Predicate("$x / -0 < 1.5")
        #expect(predicate.description == "$x / -0 < 1.5")
        #expect(try predicate.evaluate(["x": 1]))
        #expect(try Predicate(predicate.description).evaluate(["x": 1]))
    }

    @Test func customDepthLimitApplies() {
        let error = Fixtures.parseError("(($x == 1))", options: PredicateParseOptions(maximumDepth: 1))
        #expect(error?.code == .nestingTooDeep)
    }

    @Test func catastrophicBacktrackingPatternAnswersPromptly() throws {
        let predicate = try Predicate("$s MATCHES '(a+)+$'")
        let text = String(repeating: "a", count: 31) + "!"
        #expect(try !predicate.evaluate(["s": .string(text)]))
        #expect(try predicate.evaluate(["s": .string(String(repeating: "a", count: 31))]))
    }

    @Test func nestedQuantifiersOnLongInputFinish() throws {
        let regex = try SafeRegex("(x+x+)+y")
        #expect(!regex.matches(String(repeating: "x", count: 5_000)))
        #expect(regex.matches(String(repeating: "x", count: 5_000) + "y"))
    }
}

@Suite struct LinearSearchTests {
    /// KMP: a long, almost-matching needle in a long haystack stays linear.
    @Test func containsOnLongRepetitiveStringsAnswersCorrectly() throws {
        let predicate = try Predicate("$a CONTAINS[c] $b")
        let haystack = String(repeating: "a", count: 200_000)
        #expect(
            try !predicate.evaluate(["a": .string(haystack), "b": .string(String(repeating: "a", count: 99_999) + "b")])
        )
        #expect(
            try predicate.evaluate([
                "a": .string(haystack + "B"), "b": .string(String(repeating: "a", count: 99_999) + "b"),
            ]))
        #expect(try predicate.evaluate(["a": .string("xxabcabd"), "b": .string("abcabd")]))
        #expect(try !predicate.evaluate(["a": .string("abcab"), "b": .string("abcabd")]))
    }
}
