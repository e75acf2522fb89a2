import Foundation
import Testing

@testable import FormModel

/// Loads descriptor text, returning the form or the problems' descriptions.
func load(_ text: String, file: String = "test.yaml") -> Result<Form, LoadProblems> {
    FormLoader().load(text, file: file, defaultID: "test")
}

func problems(_ text: String, file: String = "test.yaml") -> [String] {
    switch load(text, file: file) {
    case .success: []
    case .failure(let failure): failure.problems.map(\.description)
    }
}

@Suite struct LoaderTests {
    @Test func jsonAndYamlGiveTheSameForm() throws {
        let json =
            #"{"id": "pets", "title": "Pets", "sections": [{"rows": [{"tag": "has_pets", "type": "booleanSwitch", "title": "Pets?", "value": true}]}]}"#
        let yaml = """
            id: pets
            title: Pets
            sections:
              - rows:
                  - { tag: has_pets, type: booleanSwitch, title: "Pets?", value: true }
            """
        #expect(try load(json).get() == load(yaml).get())
    }

    @Test func formIdDefaultsToTheFileName() throws {
        #expect(try load("sections: []").get().id == "test")
    }

    @Test func misspeltKeyIsAnErrorWithASuggestion() {
        let found = problems("sections:\n  - rows:\n      - { tag: a, type: text, requierd: true }\n")
        #expect(
            found == [
                "test.yaml: sections[0].rows[0].requierd: unknown key 'requierd' (did you mean 'required'?) (line 3, column 31)"
            ])
    }

    @Test func unknownRowTypeListsTheKnownOnes() throws {
        let found = try #require(problems("sections: [{rows: [{tag: a, type: txt}]}]").first)
        #expect(found.contains("unknown row type 'txt' (did you mean 'text'?); known types: text, name, url"))
        #expect(found.contains("label"))
    }

    @Test func unknownRowTypeSuggestsTheClosestKnownOne() throws {
        let found = try #require(problems("sections: [{rows: [{tag: a, type: selectorPsh, options: [x]}]}]").first)
        #expect(
            found.hasPrefix(
                "test.yaml: sections[0].rows[0].type: unknown row type 'selectorPsh' (did you mean 'selectorPush'?); known types: text,"
            ))
        // Nothing is that close to `spinner`: the list alone.
        let far = try #require(problems("sections: [{rows: [{tag: a, type: spinner}]}]").first)
        #expect(!far.contains("did you mean"))
    }

    /// A descriptor ported from XLForm or Eureka is told Formwright's name for each of their keys, and
    /// a row without `type` reports only that, not its other, known keys.
    @Test func xlformKeysAreNamedWithFormwrightsKey() {
        let found = problems(
            """
            formSections:
              - formRows:
                  - { tag: a, rowType: selectorPush, selectorTitle: Alert, selectorOptions: [x] }
            """)
        #expect(
            found == [
                "test.yaml: sections: a form needs a list of sections (line 1, column 1)",
                "test.yaml: formSections: unknown key 'formSections' (did you mean 'sections'? 'formSections' is XLForm's name for it) (line 1, column 1)",
            ])
        let row = problems("sections: [{rows: [{tag: a, rowType: text, selectorTitle: Alert, selectorOptions: [x]}]}]")
        #expect(
            row == [
                "test.yaml: sections[0].rows[0].type: every row needs a type (line 1, column 20)",
                "test.yaml: sections[0].rows[0].rowType: unknown key 'rowType' (did you mean 'type'? 'rowType' is XLForm's name for it) (line 1, column 29)",
                "test.yaml: sections[0].rows[0].selectorTitle: unknown key 'selectorTitle' (did you mean 'title'? 'selectorTitle' is XLForm and Eureka's name for it) (line 1, column 44)",
                "test.yaml: sections[0].rows[0].selectorOptions: unknown key 'selectorOptions' (did you mean 'options'? 'selectorOptions' is XLForm's name for it) (line 1, column 66)",
            ])
    }

    @Test func everyProblemOfAFileIsReported() {
        let found = problems(
            """
            sections:
              - rows:
                  - { tag: a, type: selectorPush }
                  - { tag: b, type: integer, value: abc }
                  - { tag: c, type: selectorPush, value: x, options: [y, z] }
                  - { tag: a, type: text, hidden: "$nope == 1" }
                  - { tag: d, type: text, validators: [{ kind: maxLength, value: -1 }] }
            """)
        #expect(found.count == 6)
        #expect(found.contains { $0.contains("rows[0].options: a selectorPush row needs options") })
        #expect(found.contains { $0.contains("rows[1].value: 'abc' is not a whole number") })
        #expect(found.contains { $0.contains("rows[2].value: the value 'x' is not among the options (y, z)") })
        #expect(found.contains { $0.contains("rows[3].tag: duplicate tag 'a'") })
        #expect(found.contains { $0.contains("rows[3].hidden: unknown tag 'nope'") })
        #expect(found.contains { $0.contains("validators[0].value: expected a whole number of at least 0") })
    }

    /// A number written as text is refused, not converted; a date has no JSON type, so it stays text.
    @Test func aNumberWrittenAsTextIsRefused() {
        let found = problems(
            """
            sections:
              - maxRows: "3"
                rows:
                  - { tag: a, type: text, maxLength: "100", validators: [{ kind: minLength, value: '2' }] }
                  - { tag: b, type: integer, value: "5", min: '1', max: 9 }
                  - { tag: c, type: decimal, step: "0.5" }
                  - { tag: d, type: date, value: "2026-11-22", min: "2026-01-01" }
                  - { tag: e, type: text, value: "100" }
            """)
        #expect(
            found == [
                #"test.yaml: sections[0].maxRows: maxRows must be a number, not the text "3": write it without quotes (line 2, column 14)"#,
                #"test.yaml: sections[0].rows[0].maxLength: maxLength must be a number, not the text "100": write it without quotes (line 4, column 42)"#,
                #"test.yaml: sections[0].rows[0].validators[0].value: value must be a number, not the text "2": write it without quotes (line 4, column 88)"#,
                #"test.yaml: sections[0].rows[1].min: min must be a number, not the text "1": write it without quotes (line 5, column 51)"#,
                #"test.yaml: sections[0].rows[1].value: value must be a number, not the text "5": write it without quotes (line 5, column 41)"#,
                #"test.yaml: sections[0].rows[2].step: step must be a number, not the text "0.5": write it without quotes (line 6, column 40)"#,
            ])
    }

    /// YAML's `~` and JSON's `null` are no value, never the text "~" or "null".
    @Test func nullIsNoValue() throws {
        let yaml = try load(
            """
            title: ~
            submitTitle: null
            sections:
              - title: ~
                rows:
                  - tag: a
                    type: text
                    title: ~
                    placeholder:
            """
        ).get()
        #expect(yaml.title == nil)
        #expect(yaml.submitTitle == nil)
        #expect(yaml.sections[0].title == nil)
        #expect(yaml.sections[0].rows[0].title == nil)
        #expect(yaml.sections[0].rows[0].placeholder == nil)
        let json = try load(#"{"title": null, "sections": [{"rows": [{"tag": "a", "type": "text", "help": null}]}]}"#)
            .get()
        #expect(json.title == nil)
        #expect(json.sections[0].rows[0].help == nil)
        // Quoted, it is the text.
        #expect(try load(#"{"title": "~", "sections": []}"#).get().title == "~")
        #expect(
            problems("sections: [{rows: [{tag: a, type: selectorPush, options: [x, ~]}]}]") == [
                "test.yaml: sections[0].rows[0].options[1]: an option cannot be null: give it a value (line 1, column 62)"
            ])
    }

    /// JSON allows no trailing comma; the YAML parser that reads it would, so a `.json` file is checked.
    @Test func aTrailingCommaInJSONIsRefusedWithItsPlace() {
        let text = """
            {"sections": [
              {"rows": [{"tag": "a", "type": "text", "title": "a, b",},
                        {"tag": "b", "type": "text"}],}
            ]}
            """
        #expect(
            problems(text, file: "test.json") == [
                "test.json: a comma before '}' is not allowed in JSON: remove it (line 2, column 57)",
                "test.json: a comma before '}' is not allowed in JSON: remove it (line 3, column 42)",
            ])
        // The same text in a YAML file is YAML's, which allows it.
        #expect(problems(text, file: "test.yaml").isEmpty)
    }

    /// Commas and brackets inside strings are the strings' own; comments and single quotes, which the
    /// YAML parser would take, are no JSON either.
    @Test func aJSONFileIsReadAsStrictJSON() {
        let text = """
            {"title": "List [a, ] and \\"quoted, ]\\"", "sections": [  # a comment, ]
              {"rows": [{"tag": "a", "type": 'text', "title": "a, b"},]}
            ]}
            """
        #expect(
            problems(text, file: "test.json") == [
                "test.json: a comment is not allowed in JSON: remove it, or write the form in YAML (line 1, column 58)",
                "test.json: JSON strings are in double quotes (\"…\"), not single ones (line 2, column 34)",
                "test.json: a comma before ']' is not allowed in JSON: remove it (line 2, column 58)",
            ])
    }

    @Test func yamlNoStaysTextWhereTextIsExpected() throws {
        let form = try load("sections: [{rows: [{tag: answer, type: selectorPush, value: no, options: [yes, no]}]}]")
            .get()
        #expect(form.sections[0].rows[0].value == .option("no"))
        #expect(form.sections[0].rows[0].options.map(\.value) == ["yes", "no"])
    }

    @Test func typedDefaultValuesAreParsed() throws {
        let form = try load(
            """
            sections:
              - rows:
                  - { tag: d, type: date, value: "2026-11-22" }
                  - { tag: t, type: time, value: "09:30" }
                  - { tag: s, type: datetime, value: "2026-11-22T09:30" }
                  - { tag: n, type: decimal, value: 19.99 }
                  - { tag: m, type: multipleSelector, value: [b, a], options: [a, b, c] }
            """
        ).get()
        let values = form.sections[0].rows.map(\.value)
        #expect(values[0] == .date(LocalDate(year: 2026, month: 11, day: 22)!))
        #expect(values[1] == .time(LocalTime(hour: 9, minute: 30)!))
        // A form without a time zone reads date-times in UTC.
        #expect(values[2] == .dateTime(OffsetDateTime(local: LocalDateTime(iso: "2026-11-22T09:30")!, offset: 0)))
        #expect(values[2]?.description == "2026-11-22T09:30:00Z")
        #expect(values[2]?.inputText == "2026-11-22T09:30")
        #expect(values[3] == .decimal(Decimal(string: "19.99")!))
        #expect(values[4] == .options(["a", "b"]))
        #expect(problems("sections: [{rows: [{tag: d, type: date, value: '2026-02-30'}]}]").count == 1)
    }

    @Test func malformedFilesGetAClearError() {
        #expect(problems("{\"sections\": [").first?.contains("is not valid JSON or YAML") == true)
        #expect(problems("").first?.contains("the file is empty") == true)
        #expect(problems("[1, 2]").first?.contains("expected an object, found a list") == true)
        #expect(problems("{\"a\": 1, \"a\": 2, \"sections\": []}").first?.contains("duplicated key(s): 'a'") == true)
    }

    @Test func yamlAliasBombIsRefusedQuickly() {
        var lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        for level in 1...9 {
            let previous = Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
            lines.append("a\(level): &a\(level) [\(previous)]")
        }
        let found = problems(lines.joined(separator: "\n"))
        #expect(found.first?.contains("expands to more than") == true)
    }

    @Test func deepNestingIsRefused() {
        let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect(problems(deep).first?.contains("nested more than") == true)
    }

    @Test func tenThousandRowFormIsRefusedWithinLimits() {
        let rows = (0..<10_000).map { "{\"tag\": \"r\($0)\", \"type\": \"text\"}" }.joined(separator: ",")
        let found = problems("{\"sections\": [{\"rows\": [\(rows)]}]}")
        #expect(found == ["test.yaml: sections: the form has 10000 rows; forms are limited to 5000"])
    }

    @Test func oversizeAndNonUTF8FilesAreRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "formwright-load-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let big = folder.appendingPathComponent("big.json")
        try Data(repeating: 0x20, count: 50 << 20).write(to: big)
        let binary = folder.appendingPathComponent("binary.json")
        try Data([0xff, 0xfe, 0x00]).write(to: binary)
        guard case .failure(let tooBig) = FormLoader().loadFile(big.path),
            case .failure(let notText) = FormLoader().loadFile(binary.path)
        else {
            Issue.record("loaded")
            return
        }
        #expect(tooBig.description.contains("descriptors are limited to 4194304 bytes"))
        #expect(notText.description.contains("not UTF-8"))
    }
}
