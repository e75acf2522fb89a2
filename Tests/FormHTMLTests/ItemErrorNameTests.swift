import FormHTML
import FormModel
import Testing

/// An item's errors mark the item they name, inline and in the summary, so the browser script can renumber
/// them when items are removed or moved; and a refused page's title says where its error prefix ends.
@Suite struct ItemErrorNameTests {
    static func refused(_ errors: [PageError], texts: PageTexts = PageTexts(locale: "en")) throws -> MiniHTML {
        let form = try MultivaluedTests.tags()
        var state = Fixtures.initialState(form)
        state.items[0] = ["a", "b", "c"]
        state.errors = errors
        let page = FormPage(form: form, initialState: Fixtures.initialState(form), texts: texts)
        return try MiniHTML(Fixtures.text(page.render(state: state)))
    }

    @Test func anItemsErrorMarksTheItemItNamesInlineAndInTheSummary() throws {
        let html = try Self.refused([
            PageError(section: 0, position: 1, message: "Tag 2 must be at least 6 characters"),
            PageError(section: 0, position: 2, message: "Item: Tag 3 is taken"),
        ])
        let names = html.all("span").filter { $0["data-fw-item-name"] != nil }
        // Each message twice, inline and in the summary, its name marked wherever it stands.
        #expect(names.map(\.text) == ["Tag 2", "Tag 3", "Tag 2", "Tag 3"])
        #expect(names.allSatisfy { $0["lang"] == nil })
        #expect(html.element(id: "fw-tags-1-error")?.text == "Error: Tag 2 must be at least 6 characters")
        #expect(html.element(id: "fw-tags-2-error")?.text == "Error: Item: Tag 3 is taken")
        #expect(html.all("li").map(\.text) == ["Tag 2 must be at least 6 characters", "Item: Tag 3 is taken"])
    }

    @Test func aNameInAMessageOfAnotherLanguageIsMarkedWithThePagesLanguage() throws {
        var error = PageError(section: 0, position: 0, message: "Tag 1必须是有效的电子邮件地址")
        error.language = "zh-Hans"
        let html = try Self.refused([error], texts: PageTexts(locale: "zh-Hans"))
        let names = html.all("span").filter { $0["data-fw-item-name"] != nil }
        #expect(names.map(\.text) == ["Tag 1", "Tag 1"])
        #expect(names.allSatisfy { $0["lang"] == "en" })
        #expect(html.all("li").first?["lang"] == "zh-Hans")
    }

    @Test func onlyAnItemsErrorsMarkAName() throws {
        let html = try Self.refused([
            PageError(section: 0, message: "Tags accepts at most 2 entries"),
            PageError(section: 0, position: 0, message: "Something is wrong"),  // does not name its item
        ])
        #expect(!html.all("span").contains { $0["data-fw-item-name"] != nil })
    }

    @Test func aRefusedPagesTitleKeepsItsErrorPrefixForTheScript() throws {
        let html = try Self.refused([PageError(section: 0, position: 1, message: "Tag 2 is wrong")])
        let title = try #require(html.all("title").first)
        #expect(title.text == "Error: M")
        #expect(title["data-fw-error-prefix"] == "Error: ")
        let fresh = try MiniHTML(Fixtures.text(Fixtures.page(try MultivaluedTests.tags()).renderFresh(csrfToken: nil)))
        #expect(fresh.all("title").first?.text == "M")
        #expect(fresh.all("title").first?["data-fw-error-prefix"] == nil)
    }
}
