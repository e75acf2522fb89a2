import FormPredicate
import Foundation
import Testing

@testable import FormModel

/// Loading is linear in a descriptor's size: a condition of 120,000 terms (1.3 MB) loads in under a second
/// of a debug build (bench/costly.sh times a 3.9 MB one). The time limit makes a loader that is not
/// linear a failure rather than a test run that seems to hang.
@Suite(.timeLimit(.minutes(1))) struct LargeDescriptorTests {
    /// A form whose row `u` is hidden by `terms` comparisons joined with `joiner`.
    private static func form(terms: Int, joiner: String) -> String {
        let condition = Array(repeating: "$t == 'x'", count: terms).joined(separator: " \(joiner) ")
        return #"{"sections": [{"rows": [{"tag": "t", "type": "text"}, {"tag": "u", "type": "text", "hidden": ""#
            + condition + #""}]}]}"#
    }

    @Test(arguments: ["AND", "OR"])
    func aChainOfAHundredThousandTermsLoadsAndStaysFlat(joiner: String) async throws {
        let text = Self.form(terms: 120_000, joiner: joiner)
        // On a thread of its own: a second of compiling must not hold one of the test pool's threads.
        let compiled = try await onThread {
            try FormCompiler().compile(try load(text, file: "big.json").get(), file: "big.json")
        }
        guard case .predicate(let predicate, _) = try #require(compiled.row("u")).hidden else {
            Issue.record("the condition was not compiled to a predicate")
            return
        }
        #expect(try predicate.evaluate(["t": "x"]))
        #expect(try !predicate.evaluate(["t": "y"]))
        // One flat node: printing it back gives the same chain, not nested parentheses.
        #expect(predicate.description.hasPrefix("$t == 'x' \(joiner) $t == 'x' \(joiner)"))
        #expect(!predicate.description.contains("("))
    }

    @Test func mixedChainsKeepTheirPrecedence() throws {
        let predicate = try Predicate("$a == 1 AND $b == 1 AND $c == 1 OR $d == 1 AND $e == 1 OR $f == 1")
        #expect(predicate.description == "$a == 1 AND $b == 1 AND $c == 1 OR $d == 1 AND $e == 1 OR $f == 1")
        #expect(try predicate.evaluate(["a": 1, "b": 1, "c": 1, "d": 0, "e": 0, "f": 0]))
        #expect(try !predicate.evaluate(["a": 1, "b": 0, "c": 1, "d": 1, "e": 0, "f": 0]))
        #expect(try predicate.evaluate(["a": 0, "b": 0, "c": 0, "d": 1, "e": 1, "f": 0]))
        let grouped = try Predicate("($a == 1 OR $b == 1) AND $c == 1 AND ($d == 1 AND $e == 1)")
        // A group on the left joins the chain, as before; one on the right stays a group.
        #expect(grouped.description == "($a == 1 OR $b == 1) AND $c == 1 AND ($d == 1 AND $e == 1)")
    }
}

/// `work`'s result, computed on a thread of its own rather than on one of the test pool's.
private func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { answer in
        Thread { answer.resume(with: Result { try work() }) }.start()
    }
}
