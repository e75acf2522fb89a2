import Foundation
import Testing

@testable import FormModel

/// The Swift DSL builds the same `Form` as the descriptors, and its builders and modifiers behave.
@Suite struct DSLTests {
    private static let formsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Forms")

    /// `Forms/<name>` as the loader reads it.
    private func descriptor(_ name: String) throws -> Form {
        try FormLoader().loadFile(Self.formsFolder.appendingPathComponent(name).path).get()
    }

    private static let alertOptions = [
        Option("never", title: "None"), Option("5m", title: "5 minutes before"),
        Option("15m", title: "15 minutes before"), Option("30m", title: "30 minutes before"),
        Option("1h", title: "1 hour before"), Option("1d", title: "1 day before"),
    ]

    /// `Forms/event.json`, written in Swift.
    private static let event = FormDefinition("event", title: "Add Event") {
        SectionDefinition {
            RowDefinition(.text, "title", title: "Title").placeholder("Title").required().maxLength(100)
            RowDefinition(.text, "location", title: "Location").placeholder("Location")
        }
        SectionDefinition {
            RowDefinition(.booleanSwitch, "all-day", title: "All-day").value(.bool(false))
            RowDefinition(.datetime, "starts", title: "Starts").required()
            RowDefinition(.datetime, "ends", title: "Ends").required()
                .validate(.predicate("$ends >= $starts"), message: "The event must end after it starts")
        }
        SectionDefinition {
            RowDefinition(.selectorPush, "repeat", title: "Repeat").value(.option("never"))
                .options {
                    Option("never", title: "Never")
                    Option("daily", title: "Every Day")
                    Option("weekly", title: "Every Week")
                    Option("biweekly", title: "Every 2 Weeks")
                    Option("monthly", title: "Every Month")
                    Option("yearly", title: "Every Year")
                }
        }
        SectionDefinition {
            RowDefinition(.selectorPush, "alert", title: "Alert").value(.option("never")).options(alertOptions)
            RowDefinition(.selectorPush, "second-alert", title: "Second Alert").value(.option("never"))
                .hidden("$alert == 'never'").options(alertOptions)
        }
        SectionDefinition {
            RowDefinition(.url, "url", title: "URL").placeholder("https://example.com")
            RowDefinition(.email, "email", title: "Email").placeholder("name@example.com")
            RowDefinition(.integer, "guests", title: "Guests").min(.integer(0)).max(.integer(100))
            RowDefinition(.textView, "notes", title: "Notes").placeholder("Notes").maxLength(500)
        }
    }
    .submitTitle("Add").timeZone("Europe/Paris").layout(lines: [["starts", "ends"], ["url", "email"]])

    @Test func eventFormInSwiftEqualsEventJSON() throws {
        let loaded = try descriptor("event.json")
        #expect(Self.event.form == loaded)
        let fromSwift = try Self.event.compiled()
        let fromJSON = try FormCompiler().compile(loaded, file: "event.json")
        #expect(fromSwift.order == fromJSON.order)
        #expect(fromSwift.rows.map(\.row.tag) == fromJSON.rows.map(\.row.tag))
        #expect(fromSwift.rowIndex == fromJSON.rowIndex)
    }

    @Test func multivaluedSectionInSwiftEqualsMultivaluedYAML() throws {
        let tags = FormDefinition("multivalued", title: "Tags") {
            SectionDefinition("Tags") {
                for tag in ["swift", "forms"] { RowDefinition(.text, title: "Tag").value(.text(tag)) }
            }
            .multivalued(
                "tags", options: [.insert, .delete, .reorder], insertMode: .button,
                template: RowDefinition(.text, title: "Tag").placeholder("Add a tag"), maxRows: 10)
        }
        let loaded = try descriptor("multivalued.yaml")
        #expect(tags.form == loaded)
        let fromSwift = try tags.compiled()
        let fromYAML = try FormCompiler().compile(loaded, file: "multivalued.yaml")
        #expect(fromSwift.order == fromYAML.order)
        #expect(fromSwift.rows.map(\.row.tag) == fromYAML.rows.map(\.row.tag))
        #expect(fromSwift.sections.map { $0.item?.row } == fromYAML.sections.map { $0.item?.row })
    }

    /// `Forms/validations.yaml`.
    private static let validations = FormDefinition("validations", title: "Validations") {
        SectionDefinition {
            RowDefinition(.text, "username", title: "Username").required().autocomplete("username")
                .validate(.minLength(3)).validate(.maxLength(20))
                .validate(.regex("[a-z0-9_]+"), message: "Use lower-case letters, digits and _")
            RowDefinition(.email, "email", title: "Email").validate(.email)
            RowDefinition(.url, "homepage", title: "Homepage").validate(.url(schemes: ["https"]))
            RowDefinition(.integer, "age", title: "Age")
                .validate(.min(.integer(13)), message: "You must be 13 or older").validate(.max(.integer(130)))
            RowDefinition(.password, "password", title: "Password").required().validate(.minLength(8))
            RowDefinition(.password, "confirm", title: "Confirm password")
                .validate(.equalsRow("password"), message: "The passwords do not match")
            RowDefinition(.date, "starts", title: "Starts")
            RowDefinition(.date, "ends", title: "Ends")
                .validate(.predicate("$ends >= $starts"), message: "The end must not be before the start")
        }
    }

    /// A form whose custom validator is a closure on its row.
    private static let invitation = FormDefinition("invitation", title: "Invitation") {
        SectionDefinition {
            RowDefinition(.text, "code", title: "Invitation code")
                .validate("invitationCode") { value in
                    value.description.hasPrefix("FW-") ? nil : "Invitation codes start with FW-"
                }
        }
    }

    @Test func validationsFormInSwiftEqualsValidationsYAML() throws {
        let loaded = try descriptor("validations.yaml")
        #expect(Self.validations.form == loaded)
        let fromSwift = try Self.validations.compiled()
        let fromYAML = try FormCompiler().compile(loaded, file: "validations.yaml")
        #expect(fromSwift.order == fromYAML.order)
        #expect(fromSwift.rows.map(\.row.tag) == fromYAML.rows.map(\.row.tag))
    }

    @Test func customValidatorClosureIsRegisteredByName() throws {
        #expect(Array(Self.invitation.customValidators.keys) == ["invitationCode"])
        #expect(Self.invitation.problems.isEmpty)
        let code = try #require(Self.invitation.customValidators["invitationCode"])
        #expect(code.name == "invitationCode")
        #expect(code.check(.text("FW-2026")) == nil)
        #expect(code.check(.text("XX-2026")) == "Invitation codes start with FW-")
    }

    @Test func secondClosureUnderOneNameIsAProblemAndTheFirstIsKept() throws {
        let form = FormDefinition("codes") {
            SectionDefinition {
                RowDefinition(.text, "a").validate("code") { _ in "first" }
                RowDefinition(.text, "b").validate(.custom("code"))
            }
            SectionDefinition {
                RowDefinition(.text, "c").validate(.email).validate("code") { _ in "second" }
            }
        }
        #expect(form.customValidators["code"]?.check(.text("x")) == "first")
        #expect(form.problems.map(\.path) == ["sections[1].rows[0].validators[1]"])
        #expect(form.problems.first?.message.contains("sections[0].rows[0].validators[0]") == true)
        #expect(throws: LoadProblems.self) { try form.compiled() }
    }

    @Test func rowTemplateClosureIsRegistered() {
        let form = FormDefinition("list") {
            SectionDefinition {}
                .multivalued(
                    "codes", options: [.insert],
                    template: RowDefinition(.text).validate("short") { $0.description.count < 4 ? nil : "too long" })
        }
        #expect(form.customValidators["short"]?.check(.text("abcd")) == "too long")
        #expect(form.form.sections[0].rowTemplate?.validators == [ValidatorSpec(.custom("short"))])
    }
}

/// The builders' control flow and the modifiers' mapping onto the model.
@Suite struct DSLBuilderTests {
    private func tags(_ definition: FormDefinition) -> [[String?]] {
        definition.form.sections.map { $0.rows.map(\.tag) }
    }

    private func form(pets: Bool, contact: RowDefinition?, days: [String]) -> FormDefinition {
        FormDefinition("flow") {
            SectionDefinition {
                RowDefinition(.booleanSwitch, "has_pets")
                if pets { RowDefinition(.text, "pet_names") }
                if pets {
                    RowDefinition(.integer, "pet_count")
                } else {
                    RowDefinition(.label, title: "No pets")
                }
                for day in days { RowDefinition(.booleanCheck, day) }
                contact
            }
            if !pets { SectionDefinition { RowDefinition(.text, "why") } }
        }
    }

    @Test func ifElseForAndOptionalRowsBuildWhatTheyShould() {
        let phone = RowDefinition(.phone, "phone")
        #expect(
            tags(form(pets: true, contact: phone, days: ["mon", "tue"])) == [
                ["has_pets", "pet_names", "pet_count", "mon", "tue", "phone"]
            ])
        #expect(tags(form(pets: false, contact: nil, days: [])) == [["has_pets", nil], ["why"]])
    }

    @Test func rowsOutsideSectionsGatherIntoUntitledSections() {
        let definition = FormDefinition("loose") {
            RowDefinition(.text, "a")
            RowDefinition(.text, "b")
            SectionDefinition("Middle") { RowDefinition(.text, "c") }
            RowDefinition(.text, "d")
        }
        #expect(tags(definition) == [["a", "b"], ["c"], ["d"]])
        #expect(definition.form.sections.map(\.title) == [nil, "Middle", nil])
    }

    @Test func optionsAcceptPlainStringsAndLoops() {
        let sizes = ["s", "m"]
        let row = RowDefinition(.selectorPush, "size").options {
            "xs"
            for size in sizes { size }
            Option("l", title: "Large")
        }
        #expect(row.row.options == [Option("xs"), Option("s"), Option("m"), Option("l", title: "Large")])
    }

    @Test func modifiersReturnACopyAndLeaveTheOriginal() {
        let base = RowDefinition(.text, "name", title: "Name")
        let changed = base.required().placeholder("Your name").validate("x") { _ in nil }
        #expect(base.row == Row(.text, tag: "name", title: "Name"))
        #expect(base.customValidators.isEmpty)
        #expect(changed.row.required == .always && changed.row.placeholder == "Your name")
        #expect(changed.customValidators.map(\.name) == ["x"])

        let section = SectionDefinition { base }
        _ = section.tag("s").hidden(true)
        #expect(section.section.tag == nil && section.section.hidden == .never)

        let definition = FormDefinition("f") { section }
        _ = definition.locale("fr").disabled()
        #expect(definition.form.locale == "en" && !definition.form.disabled)
    }

    @Test func boolConditionsAreConstantsAndStringsArePredicates() {
        let row = RowDefinition(.integer, "pet_count")
        #expect(row.hidden(true).row.hidden == .constant(true))
        #expect(row.hidden("$alert == 'never'").row.hidden == .predicate("$alert == 'never'"))
        #expect(row.required(false).row.required == .constant(false))
        #expect(row.required("$has_pets == 1").row.required == .predicate("$has_pets == 1"))
        #expect(row.disabled().row.disabled == .constant(true))
        #expect(row.disabled("$locked").row.disabled == .predicate("$locked"))
        let section = SectionDefinition { row }
        #expect(section.hidden(false).section.hidden == .constant(false))
        #expect(section.hidden("$has_pets == NO").section.hidden == .predicate("$has_pets == NO"))
    }

    @Test func everyRowSettingReachesTheModelRow() {
        let built = RowDefinition(.upload, "photo", title: "Photo").value(.integer(1)).placeholder("p")
            .required(message: "Send one").hidden("$a").disabled(false).validate(.email, message: "m")
            .options { "x" }.noValueDisplayText("none").help("h").min(.integer(1)).max(.integer(9))
            .step(.integer(2)).maxLength(7).url("/u").accept(["image/png"])
        var expected = Row(.upload, tag: "photo", title: "Photo")
        expected.value = .integer(1)
        expected.placeholder = "p"
        expected.required = .always
        expected.requireMessage = "Send one"
        expected.hidden = .predicate("$a")
        expected.disabled = .constant(false)
        expected.validators = [ValidatorSpec(.email, message: "m")]
        expected.options = [Option("x")]
        expected.noValueDisplayText = "none"
        expected.help = "h"
        expected.min = .integer(1)
        expected.max = .integer(9)
        expected.step = .integer(2)
        expected.maxLength = 7
        expected.url = "/u"
        expected.accept = ["image/png"]
        #expect(built.row == expected)
    }

    @Test func everySectionAndFormSettingReachesTheModel() {
        let built = FormDefinition("all", title: "All") {
            SectionDefinition("Pets") { RowDefinition(.text, "a") }
                .tag("pets").footer("f").hidden("$b == 1")
                .multivalued("names", options: [.delete], insertMode: .lastRow, maxRows: 3)
        }
        .disabled().addAsteriskToRequiredRowsTitle().submitTitle("Go").locale("fr").timeZone("Europe/Paris")
        .hiddenValues(.keep).successRedirect("/thanks").editable().messages(["required": "a"], for: "fr")
        .messages(["email": "b"], for: "fr")
        var section = Section(title: "Pets", rows: [Row(.text, tag: "a")])
        section.tag = "pets"
        section.footer = "f"
        section.hidden = .predicate("$b == 1")
        section.multivaluedTag = "names"
        section.multivaluedOptions = [.delete]
        section.insertMode = .lastRow
        section.maxRows = 3
        var expected = Form(id: "all", title: "All", sections: [section])
        expected.disabled = true
        expected.addAsteriskToRequiredRowsTitle = true
        expected.submitTitle = "Go"
        expected.locale = "fr"
        expected.timeZone = "Europe/Paris"
        expected.hiddenValues = .keep
        expected.successRedirect = "/thanks"
        expected.editable = true
        expected.messages = ["fr": ["required": "a", "email": "b"]]
        #expect(built.form == expected)
    }

    @Test func compiledReportsCompilerProblemsWithTheSwiftFile() {
        let definition = FormDefinition("broken") {
            RowDefinition(.text, "a").hidden("$nope == 1")
        }
        #expect {
            try definition.compiled()
        } throws: { error in
            let problems = (error as? LoadProblems)?.problems ?? []
            return problems.map(\.description) == [
                "FormModelTests/DSLTests.swift: sections[0].rows[0].hidden: unknown tag 'nope' at column 1 in '$nope == 1'"
            ]
        }
    }
}
