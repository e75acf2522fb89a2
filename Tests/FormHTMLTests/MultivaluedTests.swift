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
        #expect(html.elements.filter { $0["data-fw-item"] != nil && !$0.inTemplate }.count == 3)
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

    /// At the cap "Add another" is hidden, not left out: the script shows it again when an item is removed.
    @Test func addAnotherIsHiddenAtTheCap() throws {
        let form = try Self.tags(maxRows: 3)
        var state = Fixtures.initialState(form)
        let add = { (state: PageState) in
            try MiniHTML(Fixtures.text(Fixtures.page(form).render(state: state))).all("button").filter {
                $0["name"] == "_add"
            }
        }
        state.items[0] = ["a", "b"]
        #expect(try add(state).map { $0["hidden"] == nil } == [true])
        state.items[0] = ["a", "b", "c"]
        #expect(try add(state).map { $0["hidden"] != nil } == [true])
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

    static func emails(options: Section.MultivaluedOptions = [.insert, .delete, .reorder]) throws -> CompiledForm {
        var section = Section(title: "Emails", rows: [])
        section.multivaluedTag = "emails"
        section.multivaluedOptions = options
        section.rowTemplate = Row(.email, tag: nil, title: "Email")
        return try FormCompiler().compile(Form(id: "m", title: "M", sections: [section]), file: "test")
    }

    @Test func aPristineItemWaitsInATemplateForAddAnother() throws {
        let form = try Self.emails()
        var state = Fixtures.initialState(form)
        state.items[0] = ["x", "a@b.co"]
        state.errors = [PageError(section: 0, position: 0, message: "Not an email")]
        let html = try MiniHTML(Fixtures.text(Fixtures.page(form).render(state: state)))
        // The refused first item is a text input; the template's item is what a new one must be.
        #expect(html.element(id: "fw-emails-0")?["type"] == "text")
        let content = html.templateContent
        let input = try #require(content.first { $0.name == "input" })
        #expect(input["type"] == "email")
        #expect(input["name"] == "emails")
        #expect(input["id"] == "fw-emails-2")
        #expect(input["value"] == nil)
        #expect(input["aria-invalid"] == nil)
        #expect(content.first { $0.name == "label" }?.text == "Email 3")
        #expect(!content.contains { $0["class"] == "fw-error" })
        #expect(content.compactMap { $0["data-fw-action"] } == ["remove", "up", "down"])
        #expect(html.elements.filter { $0.name == "template" }.map { $0["class"] } == ["fw-item-template"])
    }

    @Test func aSectionWithNoItemsStillHasItsTemplate() throws {
        let html = try MiniHTML(Fixtures.text(Fixtures.page(try Self.emails()).renderFresh(csrfToken: nil)))
        #expect(html.all("input").filter { $0["name"] == "emails" }.isEmpty)
        #expect(html.templateContent.filter { $0.name == "input" }.map { $0["id"] } == ["fw-emails-0"])
    }

    @Test func withoutInsertThereIsNoTemplate() throws {
        let html = try MiniHTML(
            Fixtures.text(Fixtures.page(try Self.tags(options: [.delete])).renderFresh(csrfToken: nil)))
        #expect(html.templateContent.isEmpty)
    }

    @Test func itemActionsAreAnnouncedInAPoliteLiveRegion() throws {
        let html = try MiniHTML(Fixtures.text(Fixtures.page(try Self.tags()).renderFresh(csrfToken: nil)))
        let status = try #require(html.element(id: "fw-status"))
        #expect(status["role"] == "status")
        #expect(status.text.isEmpty)
        #expect(status["data-fw-added"] == "{item} added")
        #expect(status["data-fw-removed"] == "{item} removed")
        #expect(status["data-fw-up"] == "{item} moved up")
        #expect(status["data-fw-down"] == "{item} moved down")
        #expect(status["data-fw-added-lang"] == nil)

        var chinese = try Self.tags().form
        chinese.locale = "zh-Hans"
        let zh = try MiniHTML(
            Fixtures.text(Fixtures.page(try FormCompiler().compile(chinese, file: "test")).renderFresh(csrfToken: nil)))
        #expect(zh.element(id: "fw-status")?["data-fw-added"] == "已添加{item}")
        #expect(zh.element(id: "fw-status")?["data-fw-up"] == "{item}已上移")
    }

    @Test func aFormWithoutItemActionsHasNoLiveRegion() throws {
        let html = try MiniHTML(Fixtures.text(Fixtures.page(try Self.tags(options: [])).renderFresh(csrfToken: nil)))
        #expect(html.element(id: "fw-status") == nil)
    }

    @Test func theSummaryCarriesItsHeadingsAndMarksASectionsOwnError() throws {
        let form = try Self.tags()
        var state = Fixtures.initialState(form)
        state.items[0] = ["a", "b"]
        state.errors = [
            PageError(section: 0, message: "Too many"), PageError(section: 0, position: 1, message: "Too short"),
        ]
        let html = try MiniHTML(Fixtures.text(Fixtures.page(form).render(state: state)))
        let heading = try #require(html.element(id: "fw-summary-title"))
        #expect(heading.text == "There are 2 problems")
        #expect(heading["data-fw-one"] == "There is a problem")
        #expect(heading["data-fw-several"] == "There are %d problems")
        let links = html.all("a")
        #expect(links.map { $0["href"] } == ["#fw-tags-0", "#fw-tags-1"])
        #expect(links.map { $0["data-fw-first-item"] != nil } == [true, false])
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
