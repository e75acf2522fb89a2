import Foundation
import Testing

@testable import FormPredicate

@Suite("Shared conformance corpus")
struct CorpusTests {
    @Test func corpusIsPresent() {
        #expect(Fixtures.corpus.count >= 473, "corpus not found at \(Fixtures.corpusURL.path)")
    }

    @Test("each case gives its expected outcome", arguments: Fixtures.corpus)
    func caseMatchesExpectation(_ testCase: CorpusCase) {
        #expect(Fixtures.outcome(testCase.predicate, testCase.vars) == Outcome(expectation: testCase.expect))
    }

    @Test("printing is stable and reparses to a predicate that evaluates the same", arguments: Fixtures.corpus)
    func printedFormRoundTrips(_ testCase: CorpusCase) throws {
        guard let original = try? Predicate(testCase.predicate) else { return }
        let printed = original.description
        let reparsed = try #require(try? Predicate(printed), "printed form does not parse: \(printed)")
        #expect(reparsed.description == printed)
        #expect(Fixtures.outcome(reparsed, testCase.vars) == Fixtures.outcome(original, testCase.vars))
    }

    @Test("environment evaluation equals dictionary evaluation", arguments: Fixtures.corpus)
    func environmentMatchesDictionary(_ testCase: CorpusCase) {
        guard let predicate = try? Predicate(testCase.predicate) else { return }
        let environment: [PredicateValue?] = predicate.variables.map { testCase.vars[$0.name] }
        let viaEnvironment: Outcome = (try? predicate.evaluate(in: environment)).map(Outcome.result) ?? .error
        #expect(viaEnvironment == Fixtures.outcome(predicate, testCase.vars))
    }
}
