import FormHTML
import FormModel
import Foundation
import Testing

/// A section whose rows are all hidden hides too: drawn, it would be an empty card, and an empty
/// unnamed group to a screen reader.
@Suite struct EmptySectionTests {
    static let form = Result {
        try Fixtures.compile(
            """
            sections:
              - rows:
                  - { tag: show, type: booleanSwitch, title: Show details, value: false }
              - rows:
                  - { tag: d1, type: text, title: D1, hidden: "$show == NO" }
                  - { tag: d2, type: text, title: D2, hidden: "$show == NO" }
              - title: Partly
                rows:
                  - { tag: p1, type: text, title: P1, hidden: "$show == NO" }
                  - { tag: p2, type: text, title: P2 }
              - title: Always hidden
                hidden: true
                rows:
                  - { tag: h1, type: text, title: H1 }
              - title: Tags
                multivaluedTag: tags
                multivaluedOptions: [insert]
                rowTemplate: { type: text, title: Tag }
              - title: Just a title
            """)
    }

    static func fieldsets(_ state: (inout PageState) -> Void = { _ in }) throws -> [String: Bool] {
        let form = try form.get()
        var pageState = Fixtures.initialState(form)
        state(&pageState)
        let html = try MiniHTML(Fixtures.text(Fixtures.page(form).render(state: pageState)))
        return Dictionary(
            uniqueKeysWithValues: html.all("fieldset").filter { $0["class"] == "fw-section" }.map {
                ($0["id"] ?? "", $0["hidden"] != nil)
            })
    }

    @Test func aSectionWhoseRowsAreAllHiddenIsHidden() throws {
        #expect(
            try Self.fieldsets() == [
                "fw-section_0": false, "fw-section_1": true, "fw-section_2": false, "fw-section_3": true,
                "fw-section_4": false, "fw-section_5": false,
            ])
        // It shows again when one of its rows does.
        let shown = try Self.fieldsets { state in state.rowHidden[1] = false }
        #expect(shown["fw-section_1"] == false)
    }

    /// The script hides and shows the section live; it must know the section's own constant, which the
    /// fieldset's `hidden` does not tell apart from "all rows hidden".
    @Test func theRulesCarryASectionsOwnConstantHidden() throws {
        let html = try MiniHTML(Fixtures.text(Fixtures.page(try Self.form.get()).renderFresh(csrfToken: nil)))
        let rules = try #require(html.element(id: "fw-rules")?.text)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(rules.utf8)) as? [String: Any])
        let sections = try #require(json["sections"] as? [[String: Any]])
        #expect(sections.map { $0["hidden"] as? Bool } == [nil, nil, nil, true, nil, nil])
    }
}
