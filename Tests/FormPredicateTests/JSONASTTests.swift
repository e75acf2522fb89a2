import Foundation
import Testing

@testable import FormPredicate

@Suite("JSON form of the AST")
struct JSONASTTests {
    @Test func simpleComparison() throws {
        let json = try Predicate("$alert == 'never'").jsonAST()
        #expect(
            json == #"{"v":1,"vars":[{"name":"alert","attr":"value"}],"root":{"t":"cmp","op":"==","#
                + #""l":{"t":"var","i":0,"name":"alert","attr":"value"},"r":{"t":"lit","value":"never"}}}"#)
    }

    @Test func formFacetsModifiersAndQuantifiers() throws {
        let options = PredicateParseOptions.form(tags: Fixtures.formTags)
        let json = try Predicate("ANY $first CONTAINS[cd] 'x' AND NOT $all-day.isHidden == YES", options: options)
            .jsonAST()
        #expect(
            json == #"{"v":1,"vars":[{"name":"first","attr":"value"},{"name":"all-day","attr":"isHidden"}],"#
                + #""root":{"t":"and","ps":[{"t":"cmp","op":"CONTAINS","q":"ANY","m":"cd","#
                + #""l":{"t":"var","i":0,"name":"first","attr":"value"},"r":{"t":"lit","value":"x"}},"#
                + #"{"t":"not","p":{"t":"cmp","op":"==","l":{"t":"var","i":1,"name":"all-day","attr":"isHidden"},"#
                + #""r":{"t":"lit","value":true}}}]}}"#)
    }

    @Test func expressionsKeyPathsAndIndexes() throws {
        let json = try Predicate("$rows.@sum.value + -$x * 2 > $a[LAST] OR SELF.k IN {1, nil} OR $x IN {2, $x}")
            .jsonAST()
        #expect(
            json.contains(#"{"t":"path","e":{"t":"var","i":0,"name":"rows","attr":"value"},"keys":["@sum","value"]}"#))
        #expect(json.contains(#"{"t":"arith","op":"*","l":{"t":"neg","e":{"t":"var","i":1"#))
        #expect(json.contains(#"{"t":"index","e":{"t":"var","i":2,"name":"a","attr":"value"},"at":"LAST"}"#))
        #expect(json.contains(#"{"t":"path","e":{"t":"self"},"keys":["k"]}"#))
        // An aggregate of literals is folded into one array literal; one with a variable stays an aggregate.
        #expect(json.contains(#""r":{"t":"lit","value":[1,null]}"#))
        #expect(json.contains(#"{"t":"agg","es":[{"t":"lit","value":2},{"t":"var","i":1,"name":"x","attr":"value"}]}"#))
    }

    @Test(arguments: Fixtures.corpus)
    func everyCorpusPredicateGivesValidJSON(_ testCase: CorpusCase) throws {
        guard let predicate = try? Predicate(testCase.predicate) else { return }
        let decoded = try JSONDecoder().decode(PredicateValue.self, from: Data(predicate.jsonAST().utf8))
        guard case .dictionary(let top) = decoded else {
            Issue.record("the AST is not a JSON object")
            return
        }
        #expect(top["v"] == 1)
        #expect(
            top["vars"].map { if case .array(let vars) = $0 { vars.count } else { -1 } } == predicate.variables.count)
    }
}
