import FormHTML
import FormModel
import Foundation
import Testing

/// Multivalued sections: items posting under the multivaluedTag, their buttons, and the cap.
@Suite struct MultivaluedTests {
    static func tags(
        maxRows: Int? = nil, options: Section.MultivaluedOptions = [.insert, .delete, .reorder]
    ) throws
        -> CompiledForm
    {
        var section = Section(
            title: "Tags", rows: [Row(.text, tag: nil, title: "Tag"), Row(.text, tag: nil, title: "Tag")])
        section.rows[0].value = .text("swift")
        section.multivaluedTag = "tags"
        section.multivaluedOptions = options
        section.maxRows = maxRows
        section.rowTemplate = Row(.text, tag: nil, title: "Tag")
        return try FormCompiler().compile(Form(id: "m", title: "M", sections: [section]), file: "test")
    }

    @Test func itemsPostInOrderUnderTheMultivaluedTag() throws {
        let form = try Self.tags()
        var state = Fixtures.initialState(form)
        state.items[0] = ["a", "b", "c"]
        let html = try MiniHTML(Fixtures.text(Fixtures.page(form).render(state: state)))
        let items = html.all("input").filter { $0["name"] == "tags" }
        #expect(items.map { $0["value"] } == ["a", "b", "c"])
        #expect(items.map { $0["id"] } == ["fw-tags-0", "fw-tags-1", "fw-tags-2"])
        #expect(html.elements.filter { $0["data-fw-item"] != nil }.count == 3)
    }

    @Test func rulesGiveTheScriptTheCapItemKindAndEachRowsSection() throws {
        let html = try MiniHTML(Fixtures.text(Fixtures.page(try Self.tags(maxRows: 4)).renderFresh(csrfToken: nil)))
        let script = try #require(html.element(id: "fw-rules"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(script.text.utf8)) as? [String: Any])
        let section = try #require((json["sections"] as? [[String: Any]])?.first)
        #expect(section["maxItems"] as? Int == 4)
        #expect(section["itemKind"] as? String == "text")
        let rows = try #require(json["rows"] as? [[String: Any]])
        #expect(rows.map { $0["section"] as? Int } == [0, 0])
        #expect(json["disabled"] == nil)
    }

    @Test func aListThatCannotGrowCapsItsItemsAtItsRowsAsTheServerDoes() throws {
        // Two descriptor rows and no `insert`: the server keeps at most two items (`Section.itemCap`),
        // so the script must count no more, whatever `maxRows` says.
        let fixed = try Self.tags(maxRows: 4, options: [.delete])
        #expect(fixed.sections[0].section.itemCap == 2)
        let html = try MiniHTML(Fixtures.text(Fixtures.page(fixed).renderFresh(csrfToken: nil)))
        let script = try #require(html.element(id: "fw-rules"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(script.text.utf8)) as? [String: Any])
        #expect((json["sections"] as? [[String: Any]])?.first?["maxItems"] as? Int == 2)
        #expect(try Self.tags(maxRows: 4).sections[0].section.itemCap == 4)
        #expect(try Self.tags().sections[0].section.itemCap == Section.defaultMaxRows)
    }

    @Test func descriptorRowsAreTheDefaultItems() throws {
        let html = try MiniHTML(Fixtures.text(Fixtures.page(try Self.tags()).renderFresh(csrfToken: nil)))
        #expect(html.all("input").filter { $0["name"] == "tags" }.map { $0["value"] } == ["swift", ""])
    }

    @Test func itemButtonsWaitForTheScript() throws {
        let html = try MiniHTML(Fixtures.text(Fixtures.page(try Self.tags()).renderFresh(csrfToken: nil)))
        let actions = html.all("button").filter { $0["data-fw-action"] != nil }
        #expect(actions.map { $0["data-fw-action"] } == ["remove", "up", "down", "remove", "up", "down"])
        #expect(actions.allSatisfy { $0["type"] == "button" && $0["hidden"] != nil })
        let add = try #require(html.all("button").first { $0["name"] == "_add" })
        #expect(add["value"] == "tags")
        #expect(add["type"] == "submit")
        #expect(add["formnovalidate"] != nil)
        #expect(add.text == "Add another")
    }

    @Test func aHiddenDefaultSubmitPrecedesAddAnother() throws {
        let html = try MiniHTML(Fixtures.text(Fixtures.page(try Self.tags()).renderFresh(csrfToken: nil)))
        let submits = html.all("button").filter { $0["type"] == "submit" }
        #expect(submits.first?["name"] == nil)
        #expect(submits.first?["hidden"] != nil)
    }

    @Test func addAnotherDisappearsAtTheCap() throws {
        let form = try Self.tags(maxRows: 3)
        var state = Fixtures.initialState(form)
        state.items[0] = ["a", "b"]
        #expect(Fixtures.text(Fixtures.page(form).render(state: state)).contains("name=\"_add\""))
        state.items[0] = ["a", "b", "c"]
        #expect(!Fixtures.text(Fixtures.page(form).render(state: state)).contains("name=\"_add\""))
    }

    @Test func withoutInsertThereIsNoAddButton() throws {
        let form = try Self.tags(options: [.delete])
        let html = try MiniHTML(Fixtures.text(Fixtures.page(form).renderFresh(csrfToken: nil)))
        #expect(!html.all("button").contains { $0["name"] == "_add" })
        #expect(html.all("button").compactMap { $0["data-fw-action"] } == ["remove", "remove"])
    }

    /// After "Add another" the new item takes focus when the page loads; the page has one autofocus,
    /// so a summary shown with it gives its own up.
    @Test func aFocusedItemHasTheOnlyAutofocus() throws {
        let form = try Self.tags()
        var state = Fixtures.initialState(form)
        state.items[0] = ["a", "b", ""]
        state.focus = .item(section: 0, position: 2)
        state.errors = [PageError(formMessage: "Stale")]
        let html = try MiniHTML(Fixtures.text(Fixtures.page(form).render(state: state)))
        #expect(html.elements.filter { $0["autofocus"] != nil }.map { $0["id"] } == ["fw-tags-2"])
        state.focus = .section(0)
        let section = try MiniHTML(Fixtures.text(Fixtures.page(form).render(state: state)))
        let focused = section.elements.filter { $0["autofocus"] != nil }
        #expect(focused.map(\.name) == ["fieldset"])
        #expect(focused.first?["tabindex"] == "-1")
        #expect(focused.first?["data-fw-multivalued"] == "tags")
    }

    @Test func itemErrorsAreLinkedFromTheSummary() throws {
        let form = try Self.tags()
        var state = Fixtures.initialState(form)
        state.items[0] = ["ok", "bad"]
        state.errors = [PageError(section: 0, position: 1, message: "Too short")]
        let html = try MiniHTML(Fixtures.text(Fixtures.page(form).render(state: state)))
        #expect(html.all("a").compactMap { $0["href"] } == ["#fw-tags-1"])
        #expect(html.element(id: "fw-tags-1")?["aria-invalid"] == "true")
        #expect(html.element(id: "fw-tags-1-error")?.text.contains("Too short") == true)
        #expect(html.element(id: "fw-tags-0")?["aria-invalid"] == nil)
    }
}
