import Foundation
import Testing

@testable import FormPredicate

@Suite("Form mode: tags, row facets and dependencies")
struct FormModeTests {
    let options = PredicateParseOptions.form(tags: Fixtures.formTags)

    @Test func plainTagReadsTheRowValue() throws {
        let predicate = try Predicate("$alert == 'never'", options: options)
        #expect(predicate.variables == [PredicateVariable(name: "alert", attribute: .value)])
        #expect(try predicate.evaluate(["alert": "never"]))
    }

    @Test func valueSuffixIsTheSameAsThePlainTag() throws {
        let predicate = try Predicate("$age.value > 12 AND $age > 12", options: options)
        #expect(predicate.variables == [PredicateVariable(name: "age", attribute: .value)])
        #expect(try predicate.evaluate(["age": 13]))
    }

    @Test func facetsAreSeparateDependencies() throws {
        let predicate = try Predicate(
            "$alert.isHidden == NO AND $starts.isDisabled == YES OR $alert != nil", options: options)
        #expect(
            predicate.variables == [
                PredicateVariable(name: "alert", attribute: .isHidden),
                PredicateVariable(name: "starts", attribute: .isDisabled),
                PredicateVariable(name: "alert", attribute: .value),
            ])
        #expect(predicate.referencedNames == ["alert", "starts"])
        #expect(predicate.attributes(of: "alert") == [.isHidden, .value])
        #expect(try predicate.evaluate(["alert": nil], hidden: [], disabled: ["starts"]))
        #expect(try !predicate.evaluate(["alert": nil], hidden: ["alert"], disabled: ["starts"]))
    }

    @Test func longestKnownTagWins() throws {
        let predicate = try Predicate("$all-day == 1", options: options)
        #expect(predicate.variables.map(\.name) == ["all-day"])
        #expect(try predicate.evaluate(["all-day": true]))
    }

    @Test func withoutTheLongerTagTheMinusIsSubtraction() throws {
        let predicate = try Predicate("$all-day == 1", options: .form(tags: ["all", "day"]))
        #expect(predicate.variables.map(\.name) == ["all"])
        #expect(predicate.description == "$all - day == 1")
    }

    @Test func tagMatchDoesNotSplitAnIdentifier() throws {
        // `age` must not match the start of `ages`, which is an unknown tag.
        let error = try #require(Fixtures.parseError("$ages > 1", options: options))
        #expect(error.code == .unknownTag)
        #expect(error.column == 1)
    }

    @Test func bracedNameReferencesAnyTag() throws {
        let predicate = try Predicate("${second-alert}.isHidden == NO", options: options)
        #expect(predicate.variables == [PredicateVariable(name: "second-alert", attribute: .isHidden)])
        #expect(predicate.description == "${second-alert}.isHidden == FALSE")
    }

    @Test func unknownTagIsAParseError() throws {
        let error = try #require(Fixtures.parseError("$alert == 1 AND $nope == 2", options: options))
        #expect(error.code == .unknownTag)
        #expect(error.column == 17)
        #expect(error.description == "unknown tag 'nope' at column 17")
    }

    @Test func corpusModeKeepsFacetsAsKeyPaths() throws {
        let predicate = try Predicate("$row.isHidden == NO")
        #expect(predicate.variables == [PredicateVariable(name: "row", attribute: .value)])
        #expect(try predicate.evaluate(["row": ["isHidden": false]]))
    }

    @Test func keyPathsContinueAfterAFacet() throws {
        let predicate = try Predicate("$alert.value.isHidden == 1", options: options)
        #expect(predicate.variables == [PredicateVariable(name: "alert", attribute: .value)])
        #expect(predicate.description == "$alert.value.isHidden == 1")
        #expect(try predicate.evaluate(["alert": ["isHidden": 1]]))
    }

    @Test func printedFormReparsesInFormMode() throws {
        for source in ["$all-day == 1 AND $alert.isHidden == NO", "${all-day}.isDisabled == YES", "$age * 2 > 3"] {
            let printed = try Predicate(source, options: options).description
            #expect(try Predicate(printed, options: options).description == printed)
        }
    }

    @Test func environmentAnswersByVariableIndex() throws {
        let predicate = try Predicate("$all-day == YES OR $alert.isHidden == YES", options: options)
        let values: [PredicateValue?] = [.bool(false), .bool(true)]
        #expect(try predicate.evaluate(in: values))
        #expect(throws: PredicateEvaluationError.self) {
            try predicate.evaluate(in: [.bool(false)] as [PredicateValue?])
        }
    }

    @Test func invalidLiteralRegexIsAParseErrorInFormMode() throws {
        #expect(throws: Never.self) { try Predicate("$alert MATCHES '[a-'") }  // corpus mode: reported when evaluated
        do {
            _ = try Predicate("$alert MATCHES '[a-'", options: options)
            Issue.record("a bad pattern must be refused when a form loads")
        } catch {
            #expect(error.code == .invalidRegex)
            #expect(error.column == 8)
            #expect(error.message.hasPrefix("invalid regular expression"))
        }
        #expect(throws: Never.self) { try Predicate("$alert MATCHES '[a-z]+'", options: options) }
    }
}
