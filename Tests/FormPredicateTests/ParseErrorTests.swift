import Foundation
import Testing

@testable import FormPredicate

@Suite("Parse errors name the column and what was expected")
struct ParseErrorTests {
    @Test func unterminatedStringNamesItsOpeningQuote() throws {
        let error = try #require(Fixtures.parseError("$first == 'abc"))
        #expect(error.code == .unterminatedString)
        #expect(error.column == 11)
        #expect(error.description == "unterminated string starting at column 11")
    }

    @Test func missingOperandPointsAfterTheOperator() throws {
        let error = try #require(Fixtures.parseError("$alert =="))
        #expect(error.code == .expectedValue)
        #expect(error.column == 10)
        #expect(error.description == "expected a value after '==' at column 10")
    }

    @Test func trailingTokensAreRejected() throws {
        let error = try #require(Fixtures.parseError("$x == 1 garbage"))
        #expect(error.code == .unexpectedToken)
        #expect(error.column == 9)
        #expect(error.description.contains("'garbage'"))
    }

    @Test func aLoneExpressionIsNotAPredicate() throws {
        let error = try #require(Fixtures.parseError("$x + 1"))
        #expect(error.code == .notAPredicate)
        #expect(error.column == 7)
    }

    @Test func unknownModifierIsNamed() throws {
        let error = try #require(Fixtures.parseError("$x ==[x] 'a'"))
        #expect(error.code == .invalidModifier)
        #expect(error.column == 7)
        #expect(error.description.contains("'x'"))
    }

    @Test func strayCharactersAreInvalid() throws {
        let error = try #require(Fixtures.parseError("$x == 1 & $y == 2"))
        #expect(error.code == .invalidCharacter)
        #expect(error.column == 9)
        #expect(error.description.contains("'&&'"))
    }

    @Test func unclosedGroupNamesTheOpener() throws {
        let error = try #require(Fixtures.parseError("(($x == 1)"))
        #expect(error.code == .expectedToken)
        #expect(error.column == 11)
        #expect(error.description.contains("to close '(' at column 1"))
    }

    @Test func numberRunningIntoLettersIsInvalid() throws {
        let error = try #require(Fixtures.parseError("$x == 3abc"))
        #expect(error.code == .invalidNumber)
        #expect(error.column == 7)
        #expect(error.description.contains("'3abc'"))
    }

    @Test func emptyPredicateIsAnError() throws {
        let error = try #require(Fixtures.parseError("   "))
        #expect(error.code == .emptyPredicate)
        #expect(error.column == 1)
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let error = try #require(Fixtures.parseError("$s == 'é' 'x'"))
        #expect(error.column == 11)
    }

    @Test func unsupportedKeywordsAreNamed() throws {
        let error = try #require(Fixtures.parseError("SUBQUERY($x, $y, $y == 1).@count > 0"))
        #expect(error.code == .unsupportedKeyword)
    }

    @Test func reservedWordAfterDotSuggestsEscape() throws {
        let error = try #require(Fixtures.parseError("$x.first == 1"))
        #expect(error.description.contains("#first"))
        #expect(Fixtures.parseError("$x.#first == 1") == nil)
    }
}
