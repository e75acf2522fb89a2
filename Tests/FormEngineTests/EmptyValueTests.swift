import FormEngine
import FormModel
import FormPredicate
import Testing

/// docs/submissions.md, rule 6: empty means nil, `""`, whitespace-only text (not a password's) or an empty
/// selection; and an empty value is no value everywhere, exactly as one never sent.
@Suite struct EmptyValueTests {
    /// `note` is free text; `follow` shows only once `note` has a value; `pin` is a password, and
    /// `pinned` shows once it has one.
    static func noteForm() throws -> FormEngine {
        var follow = Row(.text, tag: "follow")
        follow.hidden = .predicate("$note == nil")
        var pinned = Row(.text, tag: "pinned")
        pinned.hidden = .predicate("$pin == nil")
        let rows = [Row(.textView, tag: "note"), follow, Row(.password, tag: "pin"), pinned]
        return FormEngine(
            form: try FormCompiler().compile(Form(id: "note", sections: [Section(rows: rows)]), file: "t"))
    }

    @Test(arguments: ["   ", " \t\r\n ", "\u{3000}", "\u{200B}\u{2060}", "\u{3164}", "\u{2800}", "\u{A0}\u{85}"])
    func blankTextIsNoValue(blank: String) {
        let engine = Fixtures.engine("event")
        let blanked = engine.evaluate(
            Fixtures.event(["location": blank, "url": blank, "email": blank, "notes": blank]))
        let unsent = engine.evaluate(Fixtures.event(["location": nil, "url": nil, "email": nil, "notes": nil]))
        #expect(blanked.isValid)
        #expect(blanked.httpParameters["notes"] == .null)
        #expect(blanked.formValues["location"] == nil)  // formValues leaves out a row without a value
        #expect(blanked.payloadJSON.text == unsent.payloadJSON.text)
        #expect(String(decoding: blanked.payloadJSONBytes, as: UTF8.self) == unsent.payloadJSON.text)
        #expect(blanked.values == unsent.values)
    }

    /// `notes` has `maxLength` 500: spaces pass it (empty input passes every rule but `required`, rule 7),
    /// and are then no value, rather than 900,000 spaces in the payload.
    @Test func aFloodOfSpacesPassesMaxLengthAndIsNoValue() {
        let verdict = Fixtures.engine("event").evaluate(
            Fixtures.event(["notes": String(repeating: " ", count: 900_000)]))
        #expect(verdict.isValid)
        #expect(verdict.httpParameters["notes"] == .null)
        #expect(verdict.payloadJSONBytes.count < 1_000)
    }

    @Test func blankRequiredTextIsRequiredAndKeptForThePage() throws {
        let engine = Fixtures.engine("event")
        let verdict = engine.evaluate(Fixtures.event(["title": "  \t"]))
        #expect(verdict.codes == ["title:required"])
        let title = try #require(engine.form.rowIndex["title"])
        #expect(verdict.entered[title] == ["  \t"])  // the re-rendered page keeps what was typed
    }

    @Test func jsonBlankTextIsNoValueToo() throws {
        let body =
            #"{"title":"Lunch","starts":"2026-11-23T12:00","ends":"2026-11-23T13:00","notes":"  ","location":""}"#
        let verdict = Fixtures.engine("event").evaluate(try JSONBody.parse(Array(body.utf8)))
        #expect(verdict.isValid)
        #expect(verdict.httpParameters["notes"] == .null)
        #expect(verdict.httpParameters["location"] == .null)
    }

    /// Conditions read blank text as null, as they read `""` and a value never sent.
    @Test func conditionsReadBlankTextAsNull() throws {
        let engine = try Self.noteForm()
        for sent in ["", "   ", "\n"] {
            let verdict = engine.evaluate(Fixtures.post([("note", sent)]), explain: true)
            #expect(verdict.rowHidden[1], "note = \(sent.debugDescription)")
            guard case .predicate(_, let inputs, _)? = verdict.trace?.rows[1].hidden else {
                Issue.record("follow's hidden is not a predicate")
                continue
            }
            #expect(inputs.map(\.1) == [.null])
        }
        #expect(!engine.evaluate(Fixtures.post([("note", " x ")])).rowHidden[1])
    }

    /// A password's spaces are a password: kept, and read by conditions (rule 6's exception).
    @Test func passwordSpacesAreAValue() throws {
        let engine = try Self.noteForm()
        let verdict = engine.evaluate(Fixtures.post([("pin", "   ")]))
        #expect(!verdict.rowHidden[3])
        #expect(verdict.httpParameters["pin"] == .string("   "))
        let validations = Fixtures.engine("validations").evaluate(
            Fixtures.post([("username", "abc"), ("password", String(repeating: " ", count: 8))]))
        #expect(validations.isValid)
        #expect(validations.httpParameters["password"] == .string("        "))
    }

    /// `formwright evaluate`'s explanation shows the row's value as null, as the payloads do.
    @Test func explanationShowsBlankTextAsNull() throws {
        let verdict = try Self.noteForm().evaluate(Fixtures.post([("note", "   ")]), explain: true)
        guard case .array(let rows)? = verdict.explanationJSON["rows"], case .object(let note)? = rows.first else {
            Issue.record("no rows in the explanation")
            return
        }
        #expect(note.first { $0.0 == "value" }?.1 == .null)
        #expect(verdict.explanationJSON["httpParameters"]?["note"] == .null)
    }
}
