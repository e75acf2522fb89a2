import Foundation
import Testing

@testable import FormPredicate

@Suite("JSON-lines protocol")
struct LineProtocolTests {
    @Test func answersResultLines() {
        #expect(
            PredicateLineProtocol.response(toLine: #"{"predicate": "$x == 1", "vars": {"x": 1}}"#)
                == #"{"result":true}"#)
        #expect(
            PredicateLineProtocol.response(toLine: #"{"predicate": "$x == 2", "vars": {"x": 1}}"#)
                == #"{"result":false}"#)
    }

    @Test func reportsErrorsAsErrorLines() throws {
        let line = try #require(PredicateLineProtocol.response(toLine: #"{"predicate": "$x == 'a", "vars": {}}"#))
        #expect(line == #"{"error":"unterminated string starting at column 7"}"#)
    }

    /// The grammar's variable is `$` and a C identifier: `$second-alert` is `$second - alert`. The error
    /// says how to name the variable the vars hold; the braced form reads it.
    @Test func aHyphenatedVariableErrorSuggestsTheBracedForm() throws {
        let line = try #require(
            PredicateLineProtocol.response(toLine: #"{"predicate": "$second-alert == 1", "vars": {"second-alert": 1}}"#)
        )
        #expect(
            line
                == #"{"error":"variable '$second' is not bound (a variable is $ and an identifier, so '$second-alert' is read as '$second' and what follows; for the variable 'second-alert' write ${second-alert})"}"#
        )
        #expect(
            PredicateLineProtocol.response(
                toLine: #"{"predicate": "${second-alert} == 1", "vars": {"second-alert": 1}}"#)
                == #"{"result":true}"#)
    }

    @Test func malformedLinesGetErrorsNotCrashes() throws {
        for line in ["not json", "{}", #"{"predicate": 5}"#, "[", #"{"predicate": "$x == 1", "vars": 3}"#] {
            let answer = try #require(PredicateLineProtocol.response(toLine: line))
            #expect(answer.hasPrefix(#"{"error":"#))
        }
    }

    @Test func blankLinesAreSkipped() {
        #expect(PredicateLineProtocol.response(toLine: "  ") == nil)
    }

    @Test func astRequestAnswersTheJSONAST() throws {
        let line = try #require(PredicateLineProtocol.response(toLine: #"{"predicate": "$x == 1", "ast": true}"#))
        #expect(line == #"{"ast":"# + (try Predicate("$x == 1")).jsonAST() + "}")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect((object["ast"] as? [String: Any])?["v"] as? Int == 1)
    }

    @Test func astRequestReportsParseErrors() throws {
        let line = try #require(PredicateLineProtocol.response(toLine: #"{"predicate": "$x ==", "ast": true}"#))
        #expect(line.hasPrefix(#"{"error":"#))
    }

    @Test func astFalseEvaluatesAsBefore() {
        #expect(
            PredicateLineProtocol.response(toLine: #"{"predicate": "$x == 1", "vars": {"x": 1}, "ast": false}"#)
                == #"{"result":true}"#)
    }
}
