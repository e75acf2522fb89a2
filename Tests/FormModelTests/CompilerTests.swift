import FormPredicate
import Foundation
import Testing

@testable import FormModel

private func compile(_ text: String) throws -> CompiledForm {
    let form = try load(text).get()
    return try FormCompiler().compile(form, file: "test.yaml")
}

@Suite struct CompilerTests {
    @Test func nonIdentifierTagsAreReferenceable() throws {
        let form = try compile(
            """
            sections:
              - rows:
                  - { tag: all-day, type: booleanSwitch }
                  - { tag: starts, type: time, hidden: "$all-day == 1" }
            """)
        guard case .predicate(_, let bindings) = try #require(form.row("starts")).hidden else {
            Issue.record("not compiled")
            return
        }
        #expect(bindings == [.rowValue(0)])
    }

    @Test func attributesBindToRowState() throws {
        let form = try compile(
            """
            sections:
              - rows:
                  - { tag: a, type: integer }
              - tag: extra
                hidden: "$a == 0"
                rows:
                  - { tag: b, type: text, disabled: "$a.isHidden == YES OR $extra.isHidden == YES" }
                  - { tag: c, type: text, hidden: "$b.isDisabled == YES" }
            """)
        #expect(try #require(form.row("b")).disabled.reads == [.rowHidden(0), .sectionHidden(1)])
        #expect(try #require(form.row("c")).hidden.reads == [.rowDisabled(1)])
    }

    @Test func orderPutsEveryFactAfterWhatItReads() throws {
        let form = try compile(
            """
            sections:
              - rows:
                  - { tag: c, type: text, hidden: "$b == 'x'" }
                  - { tag: b, type: text, hidden: "$a == 1" }
                  - { tag: a, type: integer }
            """)
        let position = Dictionary(uniqueKeysWithValues: form.order.enumerated().map { ($1, $0) })
        for fact in form.order {
            let reads: [FormFact]
            switch fact {
            case .rowHidden(let index):
                reads = form.rows[index].hidden.reads + [.sectionHidden(form.rows[index].sectionIndex)]
            case .rowDisabled(let index): reads = form.rows[index].disabled.reads
            case .rowValue(let index): reads = [.rowDisabled(index), .rowHidden(index)]
            case .sectionHidden(let index): reads = form.sections[index].hidden.reads
            case .sectionValue(let index): reads = [.sectionHidden(index)]
            }
            for read in reads { #expect(position[read]! < position[fact]!, "\(read) must come before \(fact)") }
        }
    }

    @Test func cycleIsPrintedAsAPath() {
        #expect {
            try compile(
                """
                sections:
                  - rows:
                      - { tag: a, type: booleanSwitch, hidden: "$b == 1" }
                      - { tag: b, type: booleanSwitch, hidden: "$a == 1" }
                """)
        } throws: { error in
            "\(error)" == "test.yaml: dependency cycle: a.hidden → b.value → b.hidden → a.value → a.hidden"
        }
    }

    /// Two separate cycles (and a third row that reads one of them) give two problems, each cycle once.
    @Test func everyCycleIsReportedOnce() {
        #expect {
            try compile(
                """
                sections:
                  - rows:
                      - { tag: a, type: booleanSwitch, hidden: "$b == 1" }
                      - { tag: b, type: booleanSwitch, hidden: "$a == 1" }
                      - { tag: c, type: booleanSwitch, disabled: "$d == 1" }
                      - { tag: d, type: booleanSwitch, disabled: "$c == 1 OR $a == 1" }
                """)
        } throws: { error in
            "\(error)" == """
                test.yaml: dependency cycle: a.hidden → b.value → b.hidden → a.value → a.hidden
                test.yaml: dependency cycle: c.disabled → d.value → d.disabled → c.value → c.disabled
                """
        }
    }

    @Test func keepModeLetsHiddenRowsFeedConditionsWithoutACycle() throws {
        let form = try compile(
            """
            hiddenValues: keep
            sections:
              - rows:
                  - { tag: a, type: booleanSwitch, hidden: "$b == 1" }
                  - { tag: b, type: booleanSwitch, hidden: "$a == 1" }
            """)
        #expect(form.rows.count == 2)
    }

    @Test func syntaxErrorNamesTheColumn() {
        #expect {
            try compile("sections: [{rows: [{tag: a, type: text, hidden: \"$a == \"}]}]")
        } throws: { error in
            "\(error)".contains("rows[0].hidden: expected a value after '==' at column 7 in '$a == '")
        }
    }

    /// A set of choices per item cannot keep its place among values posted under one name.
    @Test(arguments: ["multipleSelector", "multipleSelectorPopover"])
    func aMultipleSelectorIsRefusedAsAMultivaluedItem(type: String) {
        #expect {
            try compile(
                """
                sections:
                  - rows: [{ tag: name, type: text }]
                  - title: Toppings
                    multivaluedTag: toppings
                    multivaluedOptions: [insert]
                    rowTemplate: { type: \(type), title: Topping, options: [x, y] }
                """)
        } throws: { error in
            let problems = (error as? LoadProblems)?.problems ?? []
            return problems.count == 1 && problems[0].file == "test.yaml"
                && problems[0].path == "sections[1].rowTemplate.type"
                && problems[0].message.hasPrefix(
                    "the multivalued section 'toppings' cannot collect \(type) items: each item posts one value")
        }
    }

    @Test func aMultipleSelectorFirstRowIsRefusedWithoutATemplate() {
        #expect {
            try compile(
                """
                sections:
                  - multivaluedTag: picks
                    rows: [{ type: multipleSelector, options: [x, y], value: [x] }]
                """)
        } throws: { error in
            "\(error)".hasPrefix("test.yaml: sections[0].rows[0].type: the multivalued section 'picks' cannot collect")
        }
    }

    @Test func seedEventFormCompiles() throws {
        let root = #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
        let catalog = try FormCatalog(folder: "/" + root + "/Forms")
        let event = try #require(catalog.forms["event"])
        #expect(
            event.rows.compactMap(\.row.tag) == [
                "title", "location", "all-day", "starts", "ends", "repeat", "alert", "second-alert", "url", "email",
                "guests", "notes",
            ])
        #expect(try #require(event.row("second-alert")).hidden.reads == [.rowValue(6)])
    }
}

@Suite struct ExampleFormsTests {
    private let forms = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Forms").path

    @Test func everyRowTypeAppearsInTheExamples() throws {
        let catalog = try FormCatalog(folder: forms)
        var seen = Set<RowType>()
        for form in catalog.forms.values {
            for section in form.form.sections {
                seen.formUnion(section.rows.map(\.type))
                if let template = section.rowTemplate { seen.insert(template.type) }
            }
        }
        #expect(Set(RowType.builtIns).subtracting(seen).isEmpty, "missing: \(Set(RowType.builtIns).subtracting(seen))")
    }

    /// Every kind a descriptor alone can use: `custom` calls Swift, which the product registers none
    /// of, so its example is the examples' Swift form (`Examples/formwright-examples`).
    @Test func everyValidatorKindWithoutSwiftAppearsInTheValidationsForm() throws {
        let catalog = try FormCatalog(folder: forms)
        let validations = try #require(catalog.forms["validations"])
        let kinds = Set(validations.rows.flatMap { $0.row.validators.map(\.kindName) })
        #expect(kinds == ["regex", "email", "url", "minLength", "maxLength", "min", "max", "equalsRow", "predicate"])
    }

    @Test func petsAskForNamesOnlyWithPetsAndHideTheContactSection() throws {
        let pets = try #require(try FormCatalog(folder: forms).forms["pets"])
        #expect(try #require(pets.row("pet_names")).hidden.reads == [.rowValue(0)])
        #expect(pets.sections[2].hidden.reads == [.rowValue(2)])
    }
}

@Suite struct PatternLimitTests {
    @Test(arguments: [
        "{ tag: a, type: text, validators: [{ kind: regex, pattern: '^(\\w+\\s?){1,500}$' }] }",
        "{ tag: a, type: text, hidden: \"$a MATCHES '((((a*)*)*)*){1000}b'\" }",
    ])
    func aPatternThatExpandsPastTheProgramLimitIsALoadProblemNamingTheLimit(row: String) throws {
        let form = try load("sections:\n  - rows:\n      - \(row)\n").get()
        #expect {
            try FormCompiler().compile(form, file: "test.yaml")
        } throws: { error in
            "\(error)".contains("invalid regular expression: pattern too large: over 2000 instructions")
        }
    }
}

@Suite struct TagTests {
    @Test(arguments: [("a\u{01}b", "U+0001"), ("c\u{7F}", "U+007F"), ("\u{85}d", "U+0085")])
    func aTagWithAControlCharacterIsALoadProblem(tag: String, code: String) throws {
        let form = Form(id: "t", sections: [Section(rows: [Row(.text, tag: tag)])])
        #expect {
            try FormCompiler().compile(form, file: "test.yaml")
        } throws: { error in
            "\(error)".contains("contains a control character (\(code))")
        }
    }
}
