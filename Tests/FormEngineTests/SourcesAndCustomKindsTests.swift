import FormEngine
import FormModel
import Foundation
import Testing

/// The engine's side of option sources and custom row types: what it confirms, keeps and refuses.
@Suite struct SourcesAndCustomKindsTests {
    static let planets = OptionSource(
        "planets", search: { _, _ in [] },
        lookup: { value in ["3": Option("3", title: "Earth"), "4": Option("4", title: "Mars")][value] })

    static func engine(_ rows: String, sources: [String: OptionSource] = ["planets": planets]) throws -> FormEngine {
        let form = try FormLoader().load("sections: [{rows: [\(rows)]}]", file: "f.yaml", defaultID: "f").get()
        return FormEngine(form: try FormCompiler().compile(form, file: "f.yaml"), optionSources: sources)
    }

    /// A JSON number is an option's value, as built-in selectors read it; the title is the source's.
    @Test func aSearchedRowTakesAJSONNumber() throws {
        let engine = try Self.engine("{tag: to, type: selectorPush, optionsFrom: planets}")
        let verdict = engine.evaluate(try JSONBody.parse(Array(#"{"to": 4}"#.utf8)))
        #expect(verdict.isValid)
        #expect(verdict.formValues.text == #"{"to":{"value":"4","title":"Mars"}}"#)
    }

    /// A disabled row keeps its descriptor's value whatever is posted and confirmed: the posted option's
    /// title must not travel with the kept value.
    @Test func aDisabledSearchedRowKeepsItsValueAndNoOtherTitle() throws {
        var row = Row(.selectorPush, tag: "to", title: "To")
        row.optionsFrom = "planets"
        row.disabled = .always
        row.value = .option("3")
        let compiled = try FormCompiler().compile(Form(id: "f", sections: [Section(rows: [row])]), file: "t")
        let verdict = FormEngine(form: compiled, optionSources: ["planets": Self.planets])
            .evaluate(try JSONBody.parse(Array(#"{"to": "4"}"#.utf8)))
        #expect(verdict.httpParameters.text == #"{"to":"3"}"#)
        #expect(verdict.formValues.text == #"{"to":{"value":"3","title":"3"}}"#)
        #expect(verdict.payloadJSONBytes == verdict.payloadJSON.bytes)
    }

    /// A custom type holding several options is checked by the kind's decoder alone: two choices pass.
    @Test func aCustomTypeOfSeveralOptionsTakesSeveral() throws {
        let tags = RowType.custom("tags", holds: .options, control: .checkboxes, options: [Option("a"), Option("b")])
        let compiled = try FormCompiler().compile(
            Form(id: "f", sections: [Section(rows: [Row(tags, tag: "t")])]), file: "t")
        let verdict = FormEngine(form: compiled).evaluate(try JSONBody.parse(Array(#"{"t": ["a", "b"]}"#.utf8)))
        #expect(verdict.isValid)
        #expect(verdict.httpParameters.text == #"{"t":["a","b"]}"#)
    }

    /// A decoder that makes another kind of value than its type holds is refused for the row, never
    /// carried into the payload.
    @Test func aDecoderOfTheWrongKindIsTheRowsError() throws {
        let broken = RowType.custom(
            "broken", holds: .integer, control: .textInput, decode: { texts throws(CustomRowError) in .text(texts[0]) })
        let compiled = try FormCompiler().compile(
            Form(id: "f", sections: [Section(rows: [Row(broken, tag: "n")])]), file: "t")
        let verdict = FormEngine(form: compiled).evaluate(try JSONBody.parse(Array(#"{"n": "7"}"#.utf8)))
        #expect(verdict.codes == ["n:custom.broken"])
    }
}
