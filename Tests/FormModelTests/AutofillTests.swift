import Testing

@testable import FormModel

/// A row's `autocomplete`: HTML's autofill tokens, checked at load and when a Swift form is compiled.
@Suite struct AutofillTests {
    @Test(arguments: [
        "given-name", "family-name", "on", "off", "OFF", "shipping postal-code", "billing street-address",
        "work email", "section-guest mobile tel", "section-a shipping home tel-national", "username webauthn",
        "  bday-year ", "country",
    ])
    func browsersReadThese(_ value: String) {
        #expect(Autofill.problem(in: value) == nil, "\(value)")
    }

    @Test(arguments: [
        ("", "empty"), ("first-name", "'first-name' is not an autofill field name"),
        ("work given-name", "cannot come there"), ("shipping section-a tel", "cannot come there"),
        ("on email", "cannot come there"), ("webauthn", "needs a field name"), ("section- tel", "cannot come there"),
    ])
    func browsersIgnoreThese(_ value: String, _ said: String) {
        #expect(Autofill.problem(in: value)?.contains(said) == true, "\(value)")
    }

    @Test func theLoaderKeepsAGoodOneAndNamesWhereABadOneIs() throws {
        let form = try load("sections:\n  - rows:\n      - { tag: first, type: text, autocomplete: given-name }\n")
            .get()
        #expect(form.sections[0].rows[0].autocomplete == "given-name")
        #expect(
            problems("sections:\n  - rows:\n      - { tag: first, type: text, autocomplete: first-name }\n")
                == [
                    "test.yaml: sections[0].rows[0].autocomplete: 'first-name' is not an autofill field name (given-name, email, postal-code, tel, …) (line 3, column 49)"
                ])
        #expect(
            problems("sections:\n  - rows:\n      - { tag: ok, type: booleanCheck, autocomplete: off }\n").first?
                .contains("a booleanCheck row's control takes no autocomplete") == true)
    }

    @Test func aSwiftFormIsCheckedWhenCompiled() throws {
        var row = Row(.text, tag: "first", title: "First name")
        row.autocomplete = "firstname"
        let form = Form(id: "f", sections: [Section(rows: [row])])
        #expect {
            _ = try FormCompiler().compile(form, file: "F.swift")
        } throws: { error in
            "\(error)".contains("sections[0].rows[0].autocomplete: 'firstname' is not an autofill field name")
        }
    }
}
