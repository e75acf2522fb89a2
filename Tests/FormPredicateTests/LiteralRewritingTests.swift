import Testing

@testable import FormPredicate

/// `Predicate.rewritingLiterals`: only the string literals compared directly with the chosen variables.
@Suite struct LiteralRewritingTests {
    @Test func onlyLiteralsComparedWithTheChosenVariablesAreRewritten() throws {
        let predicate = try Predicate(
            "$a > 'x' AND 'y' <= $a AND $b == 'x' AND $a IN {'p', 'q'} AND NOT ($a == 3) AND $a BETWEEN {'m', 'n'}")
        let a = try #require(predicate.variables.firstIndex { $0.name == "a" })
        let (rewritten, unreadable) = predicate.rewritingLiterals(comparedWith: [a]) {
            $0 == "n" ? nil : $0.uppercased()
        }
        #expect(
            rewritten.description
                == "$a > 'X' AND 'Y' <= $a AND $b == 'x' AND $a IN {'P', 'Q'} AND NOT $a == 3 AND $a BETWEEN {'M', 'n'}"
        )
        #expect(unreadable == ["n"])
        #expect(rewritten.source == predicate.source)
        #expect(try rewritten.evaluate(["a": .string("Z"), "b": .string("x")]) == false)
        #expect(try rewritten.evaluate(["a": .string("P"), "b": .string("x")]) == false)
    }

    @Test func aPredicateWithoutTheVariablesIsUnchanged() throws {
        let predicate = try Predicate("$b == 'x'")
        let (rewritten, unreadable) = predicate.rewritingLiterals(comparedWith: [7]) { _ in "changed" }
        #expect(rewritten.description == predicate.description)
        #expect(unreadable.isEmpty)
    }
}
