import Foundation
import Testing

@testable import FormPredicate

@Suite("SafeRegex")
struct SafeRegexTests {
    @Test(arguments: [
        ("[0-9]{5}", "12345", true), ("a|abc", "abc", true), ("x[.]y", "xzy", false), ("\\d{3}", "123", true),
        ("[^@ ]+@[^@ ]+", "ann@example.com", true), ("a{2,3}", "aaaa", false), ("(?:ab)*c", "ababc", true),
        ("\\w+\\s\\w+", "hello world", true), ("\\W", "a", false), ("[a-z-]+", "a-b", true), (".+", "", false),
        ("^abc$", "abc", true), ("a.c", "a\nc", false), ("(?<year>\\d{4})-\\d\\d", "2024-05", true),
        ("\\p{Lu}\\p{Ll}+", "Émile", true), ("colou?r", "color", true), ("a*?b", "aaab", true),
        ("\\bword\\b", "word", true), ("[\\d\\s]+", "1 2", true), ("\\x41\\u0042", "AB", true),
    ])
    func wholeStringMatching(pattern: String, text: String, expected: Bool) throws {
        #expect(try SafeRegex(pattern).matches(text) == expected)
    }

    @Test func caseInsensitiveMatchesLiteralsAndClasses() throws {
        let regex = try SafeRegex("abc[d-f]", caseInsensitive: true)
        #expect(regex.matches("ABCE"))
        #expect(!regex.matches("ABCG"))
    }

    @Test func containsMatchSearchesAnywhere() throws {
        let regex = try SafeRegex("[0-9]{3}")
        #expect(regex.containsMatch(in: "ab 123 cd"))
        #expect(!regex.matches("ab 123 cd"))
        #expect(!regex.containsMatch(in: "ab 12 cd"))
    }

    @Test(arguments: [
        ("(a)\\1", "backreferences are not supported"), ("(?=a)", "lookaround"), ("(?i)a", "inline flags"),
        ("(", "missing ')'"), ("a)", "unmatched ')'"), ("*a", "nothing to repeat"), ("[a", "missing ']'"),
        ("a{3,1}", "max below min"), ("\\q", "unsupported escape"), ("[z-a]", "out of order"),
        ("a++", "possessive"), ("(a{1000}){1000}", "too large"),
    ])
    func unsupportedOrMalformedPatternsFailToCompile(pattern: String, fragment: String) {
        #expect {
            try SafeRegex(pattern)
        } throws: { error in
            "\(error)".contains(fragment)
        }
    }

    @Test func compileErrorNamesThePosition() {
        do {
            _ = try SafeRegex("ab(c)\\1")
            Issue.record("expected a compile error")
        } catch {
            #expect(error.offset == 6)
            #expect(error.description == "backreferences are not supported at position 6")
        }
    }

    @Test func invalidLiteralPatternFailsAtEvaluation() throws {
        let predicate = try Predicate("$s MATCHES '('")
        #expect(throws: PredicateEvaluationError.self) { try predicate.evaluate(["s": "("]) }
        #expect(try !Predicate("FALSEPREDICATE AND $s MATCHES '('").evaluate(["s": "("]))
    }
}
