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

    /// Settings that would give inaccessible or meaningless HTML, in a form built in Swift as in a file.
    @Test func settingsThatRenderMeaninglessHTMLAreRefused() {
        var choice = Row(.selectorPush, tag: "choice", title: "Choice")
        choice.options = [Option("", title: "None"), Option("a")]
        choice.placeholder = "Pick one"
        var box = Row(.booleanCheck, tag: "agree", title: "Agree")
        box.placeholder = "Tick"
        var when = Row(.date, tag: "when", title: "When")
        when.placeholder = "YYYY-MM-DD"
        var upload = Row(.upload, tag: "file", title: "File")
        upload.accept = ["image/*", "application/pdf", ".pdf", "pdf", "text/*", "image/png;q=1", "."]
        var name = Row(.text, tag: "name", title: "Name")
        name.placeholder = "Ada"
        var count = Row(.integer, tag: "count", title: "Count")
        count.placeholder = "3"
        let button = Row(.button, tag: nil, title: "Go")
        var notes = Row(.textView, tag: "notes", title: "Notes")
        notes.accept = [".txt"]
        var form = Form(id: "f", sections: [Section(rows: [choice, box, when, upload, name, count, button, notes])])
        form.submitTitle = ""
        form.locale = "en_US"
        #expect(
            messages(form) == [
                "submitTitle: the submit button's text is empty, so the button has no name to see or hear: write one (\"Send\") or leave submitTitle out for the built-in one",
                "locale: 'en_US' is not a well-formed language tag (BCP 47, such as 'fr' or 'en-US'): it becomes the page's lang, which screen readers use to choose a voice",
                "sections[0].rows[0].options[0]: an option's value cannot be empty: it could not be told from no choice; give it a value (its title is what readers see)",
                "sections[0].rows[0].placeholder: a selectorPush row's control shows no placeholder (HTML gives one only to text, number and text-area fields), so no one would see it: use noValueDisplayText for the text of its empty choice, or help for a hint",
                "sections[0].rows[1].placeholder: a booleanCheck row's control shows no placeholder (HTML gives one only to text, number and text-area fields), so no one would see it: use help for a hint",
                "sections[0].rows[2].placeholder: a date row's control shows no placeholder (HTML gives one only to text, number and text-area fields), so no one would see it: use help for a hint",
                "sections[0].rows[3].accept[3]: 'pdf' is neither a media type nor an extension: write a media type (image/png), image/*, audio/* or video/*, or an extension (.pdf)",
                "sections[0].rows[3].accept[4]: 'text/*': HTML's only wildcards are image/*, audio/* and video/*; list the types instead (text/…)",
                "sections[0].rows[3].accept[5]: 'image/png;q=1' is neither a media type nor an extension: write a media type (image/png), image/*, audio/* or video/*, or an extension (.pdf)",
                "sections[0].rows[3].accept[6]: '.' is not an extension: write a media type (image/png), image/*, audio/* or video/*, or an extension (.pdf)",
                "sections[0].rows[6].url: a button row needs a url: without one it renders a button that does nothing when pressed; give it a url (/path or https://…), or use a label row for text",
                "sections[0].rows[7].accept: accept applies to upload rows; a textView row has no file",
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

/// Settings a row's type cannot use, bounds no value can meet, and addresses a browser must not be sent
/// to are load problems (`ModelChecks.fitProblems`), not surprises at the first submission.
@Suite struct FitChecksTests {
    /// The problems of a descriptor whose first section holds `rows` (YAML flow mappings), `sections`
    /// more sections after it, and `extra` keys.
    static func problems(_ rows: [String], extra: String = "", sections: String = "") -> [String] {
        let text = "\(extra)sections: [{rows: [\(rows.joined(separator: ", "))]}\(sections)]"
        switch FormLoader().load(text, file: "f.yaml", defaultID: "f") {
        case .failure(let problems): return problems.problems.map { "\($0.path): \($0.message)" }
        case .success(let form):
            do {
                _ = try FormCompiler().compile(form, file: "f.yaml")
                return []
            } catch {
                return error.problems.map { "\($0.path): \($0.message)" }
            }
        }
    }

    @Test(arguments: [
        // Validators that check what the row's type does not hold.
        ("{tag: b, type: booleanSwitch, validators: [{kind: email}]}", "validators[0]: an email validator checks text"),
        ("{tag: n, type: integer, validators: [{kind: url}]}", "validators[0]: a url validator checks text"),
        ("{tag: b, type: booleanCheck, validators: [{kind: minLength, value: 2}]}", "counts characters"),
        ("{tag: d, type: date, validators: [{kind: regex, pattern: x}]}", "a regex validator checks text"),
        // Bounds no value can meet.
        ("{tag: n, type: integer, min: 10, max: 1}", "min '10' is above max '1'"),
        ("{tag: n, type: integer, validators: [{kind: min, value: 10}, {kind: max, value: 1}]}", "min '10' is above"),
        ("{tag: d, type: date, min: '2026-12-01', max: '2026-01-01'}", "is above max"),
        (
            "{tag: t, type: text, maxLength: 4, validators: [{kind: minLength, value: 8}]}",
            "minLength 8 is over maxLength 4"
        ),
        ("{tag: n, type: integer, value: 50, max: 10}", "value: the value '50' is above the max '10'"),
        ("{tag: s, type: slider, min: 0, max: 10, step: 0}", "step: a step must be more than 0"),
        // Settings the type has no use for.
        ("{tag: t, type: text, min: 1}", "min applies to numbers, dates and times"),
        ("{tag: n, type: integer, maxLength: 3}", "maxLength counts characters"),
        // Addresses a browser must not be sent to.
        ("{type: button, title: Go, url: 'JavaScript:alert(1)'}", "url: 'javascript:' addresses are not allowed"),
        ("{type: button, title: Go, url: 'not a url'}", "holds a space"),
        ("{type: button, title: Go, url: '//evil.example/'}", "names another host"),
        ("{tag: u, type: url, validators: [{kind: url, schemes: [https, javascript]}]}", "can run script"),
    ])
    func aRowSettingNoValueCanMeetIsALoadProblem(row: String, expected: String) {
        let problems = Self.problems([row])
        #expect(problems.contains { $0.contains(expected) }, "\(problems)")
    }

    @Test func aRedirectMustBeAPathOrAnHTTPAddress() {
        #expect(
            Self.problems(["{tag: t, type: text}"], extra: "successRedirect: 'javascript:alert(1)'\n").contains {
                $0.contains("successRedirect: 'javascript:' addresses are not allowed")
            })
        for fine in ["/done", "https://example.com/thanks?a=1", "/forms/event/thanks"] {
            #expect(Self.problems(["{tag: t, type: text}"], extra: "successRedirect: '\(fine)'\n") == [])
        }
    }

    @Test func aListStartingWithMoreItemsThanItTakesIsALoadProblem() {
        let text = """
            sections: [{multivaluedTag: m, maxRows: 2, multivaluedOptions: [delete],
              rows: [{type: text, value: a}, {type: text, value: b}, {type: text, value: c}]}]
            """
        let problems: [String]
        switch FormLoader().load(text, file: "m.yaml", defaultID: "m") {
        case .failure(let found): problems = found.problems.map(\.message)
        case .success(let form):
            do {
                _ = try FormCompiler().compile(form, file: "m.yaml")
                problems = []
            } catch {
                problems = error.problems.map(\.message)
            }
        }
        #expect(problems.contains { $0.contains("starts with 3 items but takes at most 2") })
    }

    @Test func settingsThatFitTheirRowsAreFine() {
        #expect(
            Self.problems([
                "{tag: t, type: text, maxLength: 10, validators: [{kind: minLength, value: 2}, {kind: min, value: 3}]}",
                "{tag: n, type: integer, min: 1, max: 10, value: 5, step: 1}",
                "{tag: e, type: email, validators: [{kind: email}]}",
                "{tag: m, type: multipleSelector, options: [a, b], validators: [{kind: minLength, value: 1}]}",
                "{type: button, title: Mail, url: 'mailto:help@example.com'}",
            ]) == [])
    }
}

/// A condition comparing a row with a constant it can never be is a load problem: on every request it
/// would be false, or fail and count as false, whatever the reader did.
@Suite struct ConstantComparisonChecksTests {
    static let rows = [
        "{tag: agree, type: booleanSwitch}", "{tag: qty, type: integer}", "{tag: name, type: text}",
        "{tag: count, type: selectorPush, options: [1, 2, 3]}", "{tag: when, type: date}", "{tag: at, type: time}",
    ]

    @Test(arguments: [
        ("$agree == 'yes'", "$agree is a booleanSwitch row, which reads true or false, never 'yes'"),
        ("$qty == '5'", "$qty is an integer row, which reads a number, never the text '5'"),
        ("$qty CONTAINS 5", "$qty is an integer row: CONTAINS reads text or a list"),
        ("$qty BEGINSWITH '1'", "$qty is an integer row, which holds no text for 'BEGINSWITH'"),
        ("$count == 2", "reads text, never the number 2: write '2'"),
        ("$count IN {1, '2'}", "never the number 1: write '1'"),
        ("$when > 5", "$when is a date row, which reads a date or time as text, never a number"),
        ("$when > '2026-13-01'", "'2026-13-01' is not a date (write YYYY-MM-DD)"),
        ("$when > '01/02/2026'", "'01/02/2026' is not a date"),
        ("$at > '25:00'", "'25:00' is not a time of day"),
        ("'yes' == $agree", "never 'yes'"),
    ])
    func aComparisonNoValueCanMeetIsALoadProblem(condition: String, expected: String) {
        let problems = FitChecksTests.problems(Self.rows + ["{tag: x, type: text, hidden: \"\(condition)\"}"])
        #expect(problems.contains { $0.contains("rows[6].hidden") && $0.contains(expected) }, "\(problems)")
    }

    @Test func comparisonsThatCanHoldAreFine() {
        let conditions = [
            "$agree == true", "$agree == 1", "$qty > 5", "$qty == nil", "$name CONTAINS 'a'", "$name == ''",
            "$count == '2'", "$count IN {'1', '2'}", "$when > '2026-01-31'", "$at >= '09:30'", "$name.length > 3",
            "$qty == $qty", "ANY {1, 2} == $qty",
        ]
        for condition in conditions {
            #expect(FitChecksTests.problems(Self.rows + ["{tag: x, type: text, hidden: \"\(condition)\"}"]) == [])
        }
    }
}
