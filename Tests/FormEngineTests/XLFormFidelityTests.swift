import FormEngine
import FormModel
import Foundation
import Testing

/// Where a form behaves as XLForm users expect it to: what the payloads hold for empty rows, an empty
/// multiple selection, a `requireMsg` that names its row, and a `regex` validator on a padded value.
@Suite struct XLFormFidelityTests {
    static func engine(_ text: String) throws -> FormEngine {
        let form = try FormLoader().load(text, file: "f.yaml", defaultID: "f").get()
        return FormEngine(form: try FormCompiler().compile(form, file: "f.yaml"))
    }

    static let hobbies = """
        id: f
        sections:
          - rows:
              - { tag: name, type: text, title: Name }
              - { tag: hobbies, type: multipleSelector, title: Hobbies, options: [chess, golf] }
              - { tag: why, type: text, title: Why none, hidden: "$hobbies.@count != 0" }
        """

    /// `formValues` has no key for a row without a value; `httpParameters` keeps it as `null`. The
    /// payload bytes an API client gets say the same as the JSON tree.
    @Test func formValuesLeavesOutRowsWithoutAValue() throws {
        let engine = try Self.engine(Self.hobbies)
        let verdict = engine.evaluate(Fixtures.post([("hobbies", "golf")]))
        #expect(verdict.isValid)
        #expect(verdict.httpParameters.text == #"{"name":null,"hobbies":["golf"]}"#)
        #expect(verdict.formValues.text == #"{"hobbies":[{"value":"golf","title":"golf"}]}"#)
        #expect(verdict.payloadJSONBytes == verdict.payloadJSON.bytes)
        // Every row empty: formValues is an empty object, still valid JSON beside httpParameters.
        let none = engine.evaluate(Fixtures.post([("why", "")]))
        #expect(none.httpParameters.text == #"{"name":null,"hobbies":[],"why":null}"#)
        #expect(none.formValues.text == #"{"hobbies":[]}"#)
        #expect(none.payloadJSONBytes == none.payloadJSON.bytes)
    }

    /// Nothing chosen is `[]` whether the list was posted empty, not posted at all, or posted as JSON
    /// `null`, and `$hobbies.@count == 0` holds in each case (the "why" row shows).
    @Test func anEmptyMultipleSelectionIsAnEmptyList() throws {
        let engine = try Self.engine(Self.hobbies)
        let posts: [SubmittedFields] = [
            Fixtures.post([("name", "Ada")]),
            Fixtures.post([("name", "Ada"), ("hobbies", "")]),
            try JSONBody.parse(Array(#"{"name":"Ada","hobbies":[]}"#.utf8)),
            try JSONBody.parse(Array(#"{"name":"Ada","hobbies":null}"#.utf8)),
            try JSONBody.parse(Array(#"{"name":"Ada"}"#.utf8)),
        ]
        for post in posts {
            let verdict = engine.evaluate(post)
            #expect(verdict.httpParameters.text == #"{"name":"Ada","hobbies":[],"why":null}"#)
        }
        // A disabled list keeps its default, which is empty too when the descriptor gives none.
        let disabled = try Self.engine(
            Self.hobbies.replacingOccurrences(of: "golf] }", with: "golf], disabled: true }"))
        #expect(disabled.evaluate(Fixtures.post([("hobbies", "chess")])).httpParameters["hobbies"]?.text == "[]")
        // Required, an empty list is still the required error.
        let required = try Self.engine(
            Self.hobbies.replacingOccurrences(of: "golf] }", with: "golf], required: true }"))
        #expect(required.evaluate(Fixtures.post([])).codes == ["hobbies:required"])
    }

    /// `requireMsg` names its row with `{name}`, or with XLForm's own `%@`; a title holding either is
    /// written as it is, not replaced again.
    @Test func requireMessageNamesItsRow() throws {
        let engine = try Self.engine(
            """
            id: f
            sections:
              - rows:
                  - { tag: a, type: text, title: Your name, required: true, requireMsg: "{name} is needed" }
                  - { tag: b, type: text, title: Team, required: true, requireMsg: "Please fill in %@ (%@)" }
                  - { tag: c, type: text, title: "100%@ {name}", required: true, requireMsg: "{name}!" }
                  - { tag: d, type: text, required: true, requireMsg: "No name here" }
            """)
        let messages = engine.evaluate(Fixtures.post([])).errors.map(\.message)
        #expect(messages == ["Your name is needed", "Please fill in Team (Team)", "100%@ {name}!", "No name here"])
    }

    /// The `regex` validator reads the value without the spaces and tabs around it, as XLForm's does;
    /// the payload keeps what was typed, and spaces inside still count.
    @Test func regexIgnoresSpacesAndTabsAroundTheValue() throws {
        let engine = try Self.engine(
            """
            id: f
            sections:
              - rows:
                  - { tag: zip, type: text, validators: [{ kind: regex, pattern: '\\d{5}' }] }
            """)
        for padded in [" 12345", "12345\t", "\t 12345 \u{3000}", "\u{00A0}12345"] {
            let verdict = engine.evaluate(Fixtures.post([("zip", padded)]))
            #expect(verdict.isValid, "\(padded.debugDescription)")
            #expect(verdict.httpParameters["zip"] == .string(padded))
        }
        for wrong in ["123 45", " 1234 ", "1234"] {
            #expect(
                engine.evaluate(Fixtures.post([("zip", wrong)])).codes == ["zip:regex"], "\(wrong.debugDescription)")
        }
    }
}
