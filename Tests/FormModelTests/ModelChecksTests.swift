import FormModel
import Testing

/// A form built in Swift gets the same settings checks as a descriptor file.
@Suite struct ModelChecksTests {
    func messages(_ form: Form) -> [String] {
        do {
            _ = try FormCompiler().compile(form, file: "Swift")
            return []
        } catch {
            return error.problems.map { "\($0.path): \($0.message)" }
        }
    }

    @Test func swiftBuiltFormGetsTheDescriptorsSettingsChecks() {
        var selector = Row(.selectorPush, tag: "choice")
        selector.value = .option("x")
        var number = Row(.integer, tag: "count")
        number.value = .text("many")
        var info = Row(.info, tag: nil)
        info.required = .always
        var multiple = Row(.multipleSelector, tag: "many")
        multiple.options = [Option("a"), Option("a"), Option("b")]
        multiple.value = .options(["b", "z"])
        var form = Form(id: "bad id", sections: [Section(rows: [selector, number, info, multiple])])
        form.timeZone = "Mars/Olympus"
        var listed = Section(rows: [])
        listed.rowTemplate = Row(.text, tag: nil)
        form.sections.append(listed)
        #expect(
            messages(form) == [
                "timeZone: unknown time zone 'Mars/Olympus' (use an IANA name such as Europe/Paris)",
                "sections[0].rows[0].options: a selectorPush row needs options",
                "sections[0].rows[0].value: the value 'x' is not among the options",
                "sections[0].rows[1].value: the value 'many' does not fit a integer row",
                "sections[0].rows[2].required: a info row takes no input, so it cannot be required",
                "sections[0].rows[3].options: the option value 'a' appears twice",
                "sections[0].rows[3].value: the value 'z' is not among the options",
                "sections[1]: multivaluedOptions and rowTemplate need a multivaluedTag",
            ])
    }

    /// A list's rows share one state; only hiding has a section-level condition to move to.
    @Test func aListRowsConditionSaysWhereItCanGo() {
        var row = Row(.text, tag: nil, title: "Tag")
        row.hidden = .predicate("$lock == YES")
        row.disabled = .predicate("$lock == YES")
        var list = Section(title: "Tags", rows: [row])
        list.multivaluedTag = "tags"
        let form = Form(id: "f", sections: [Section(rows: [Row(.booleanCheck, tag: "lock")]), list])
        #expect(
            messages(form) == [
                "sections[1].rows[0].hidden: a multivalued section's rows cannot have a hidden predicate; put the condition on the section's hidden",
                "sections[1].rows[0].disabled: a multivalued section's rows cannot have a disabled predicate; its items share one state: write true or false",
            ])
    }

    @Test func descriptorProblemsAreNotReportedTwice() {
        let text = "sections: [{rows: [{tag: s, type: selectorPush}]}]"
        guard case .failure(let problems) = FormLoader().load(text, file: "f.yaml", defaultID: "f") else {
            Issue.record("a selector without options must be refused")
            return
        }
        #expect(problems.problems.map(\.message) == ["a selectorPush row needs options"])
    }
}

@Suite struct DSLIdentifierTests {
    @Test func definitionWithAnIdThatIsNoURLSegmentIsRefused() {
        let definition = FormDefinition("bad id") { SectionDefinition { RowDefinition(.text, "a") } }
        #expect {
            _ = try definition.compiled()
        } throws: { error in
            "\(error)".contains("a form id is letters, digits, '-' and '_' only, found 'bad id'")
        }
    }
}

@Suite struct BoundTests {
    @Test func minAndMaxOnTextRowsAreLengths() throws {
        let text =
            "sections: [{rows: [{tag: t, type: text, validators: [{kind: min, value: 3}, {kind: max, value: 5}]}]}]"
        let form = try FormLoader().load(text, file: "t.yaml", defaultID: "t").get()
        #expect(throws: Never.self) { try FormCompiler().compile(form, file: "t.yaml") }
        let dated = "sections: [{rows: [{tag: d, type: date, validators: [{kind: min, value: 3}]}]}]"
        #expect(throws: LoadProblems.self) {
            try FormLoader().load(dated, file: "d.yaml", defaultID: "d").get()
        }
    }
}
