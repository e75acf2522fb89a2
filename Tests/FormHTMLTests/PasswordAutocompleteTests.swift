import FormHTML
import FormModel
import Testing

/// A password being chosen (it must match another row, or another row must match it) is marked
/// `new-password`, so a password manager offers to generate one; any other is `current-password`.
@Suite struct PasswordAutocompleteTests {
    static func autocomplete(_ html: MiniHTML, _ id: String) -> String? { html.element(id: id)?["autocomplete"] }

    @Test func theValidationsExamplesPasswordAndItsConfirmationAreNew() throws {
        let html = try MiniHTML(
            Fixtures.text(Fixtures.page(try Fixtures.form("validations")).renderFresh(csrfToken: nil)))
        #expect(Self.autocomplete(html, "fw-password") == "new-password")
        #expect(Self.autocomplete(html, "fw-confirm") == "new-password")
    }

    @Test func aPasswordNothingComparesIsTheCurrentOne() throws {
        let form = try Fixtures.compile(
            """
            sections:
              - rows:
                  - { tag: login, type: password, title: Password }
                  - { tag: pw, type: password, title: New password }
                  - { tag: pw2, type: password, title: Confirm, validators: [{ kind: equalsRow, row: pw }] }
                  - { tag: email, type: email, title: Email }
                  - { tag: email2, type: email, title: Email again, validators: [{ kind: equalsRow, row: email }] }
            """)
        let html = try MiniHTML(Fixtures.text(Fixtures.page(form).renderFresh(csrfToken: nil)))
        #expect(Self.autocomplete(html, "fw-login") == "current-password")
        #expect(Self.autocomplete(html, "fw-pw") == "new-password")
        #expect(Self.autocomplete(html, "fw-pw2") == "new-password")
        // Only passwords change: an email confirmation stays an email.
        #expect(Self.autocomplete(html, "fw-email") == "email")
        #expect(Self.autocomplete(html, "fw-email2") == "email")
    }
}
