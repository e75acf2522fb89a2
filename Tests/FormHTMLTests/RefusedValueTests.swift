import FormHTML
import FormModel
import Testing

/// What a re-rendered page shows for entries the server refused, and errors about a whole section.
@Suite struct RefusedValueTests {
    static func form() throws -> CompiledForm {
        let rows = [
            {
                var row = Row(.integer, tag: "count", title: "Count"); row.min = .integer(0); return row
            }(),
            Row(.date, tag: "day", title: "Day"),
            Row(.datetime, tag: "at", title: "At"), Row(.url, tag: "site", title: "Site"),
        ]
        return try FormCompiler().compile(Form(id: "r", sections: [Section(rows: rows)]), file: "test")
    }

    /// (row index, what was typed, the input type the page must use).
    @Test(arguments: [
        (0, "abc", "text"), (0, "12", "number"), (0, "1e3", "number"), (1, "tomorrow", "text"),
        (1, "2026-02-30", "text"), (1, "2026-11-22", "date"), (2, "2026-11-22T10:00", "datetime-local"),
        (2, "noon", "text"), (3, "example.com", "text"), (3, "https://example.com", "url"),
    ])
    func refusedEntryStaysVisibleInATextInput(row: Int, value: String, expectedType: String) throws {
        let form = try Self.form()
        var state = Fixtures.initialState(form)
        state.values[row] = [value]
        state.errors = [PageError(row: row, message: "refused")]
        let html = try MiniHTML(Fixtures.text(Fixtures.page(form).render(state: state)))
        let input = try #require(html.all("input").first { $0["value"] == value })
        #expect(input["type"] == expectedType)
        #expect(input["aria-invalid"] == "true")
        if expectedType == "text" { #expect(input["min"] == nil && input["step"] == nil) }  // not allowed on text
    }

    @Test func sectionErrorIsShownUnderItsLegendAndLinkedFromTheSummary() throws {
        let form = try MultivaluedTests.tags(maxRows: 2)
        var state = Fixtures.initialState(form)
        state.items[0] = ["a", "b", "c"]
        state.errors = [PageError(section: 0, message: "Tags accepts at most 2 entries")]
        let html = try MiniHTML(Fixtures.text(Fixtures.page(form).render(state: state)))
        let error = try #require(html.elements.first { $0["class"] == "fw-error" })
        let fieldset = try #require(html.all("fieldset").first { $0["data-fw-multivalued"] == "tags" })
        #expect(fieldset["aria-describedby"]?.contains(error["id"] ?? "?") == true)
        #expect(html.all("input").filter { $0["name"] == "tags" }.count == 3)  // nothing sent is dropped
        #expect(html.all("a").contains { $0["href"] == "#fw-tags-0" })
    }

    @Test func itemButtonsSayWhichItemTheyActOn() throws {
        let text = Fixtures.text(Fixtures.page(try MultivaluedTests.tags()).renderFresh(csrfToken: nil))
        #expect(text.contains("Remove<span class=\"fw-visually-hidden\"> Tag 1</span>"))
        #expect(text.contains("Remove<span class=\"fw-visually-hidden\"> Tag 2</span>"))
    }
}
