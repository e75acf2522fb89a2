import FormHTML
import FormModel
import Testing

/// A page is in its form's language (`<html lang>`); fixed texts and messages in another language are
/// marked with theirs, so a screen reader speaks each in its own voice.
@Suite struct LanguageMarkTests {
    /// Every `lang` on the page but the root's.
    static func marks(_ html: MiniHTML) -> [String] {
        html.elements.filter { $0.name != "html" }.compactMap { $0["lang"] }
    }

    @Test func aPageInItsOwnLanguageMarksNothing() throws {
        let form = try Fixtures.form("event")
        let html = try MiniHTML(Fixtures.text(Fixtures.page(form).render(state: Fixtures.stateWithErrors(form))))
        #expect(html.all("html").first?["lang"] == "en")
        #expect(Self.marks(html).isEmpty)
    }

    @Test func chineseTextsOnAnEnglishPageAreMarked() throws {
        let form = try Fixtures.form("multivalued")
        let page = FormPage(form: form, initialState: Fixtures.initialState(form), texts: PageTexts(locale: "zh-Hans"))
        var state = Fixtures.stateWithErrors(form)
        for index in state.errors.indices where index.isMultiple(of: 2) { state.errors[index].language = "zh-Hans" }
        let html = try MiniHTML(Fixtures.text(page.render(state: state)))
        #expect(html.all("html").first?["lang"] == "en")
        #expect(html.all("h2").first?["lang"] == "zh-Hans")
        // Each error's hidden "Error:" prefix, and the messages in Chinese; not the others.
        let prefixes = html.elements.filter { $0["class"] == "fw-visually-hidden" && $0.text == "错误：" }
        #expect(!prefixes.isEmpty)
        #expect(prefixes.allSatisfy { $0["lang"] == "zh-Hans" })
        let marked = html.all("span").filter { $0["lang"] == "zh-Hans" && $0["class"] == nil }
        #expect(marked.contains { $0.text.contains("is wrong") || $0.text.hasPrefix("item") })
        #expect(html.all("li").filter { $0["lang"] == "zh-Hans" }.count == (state.errors.count + 1) / 2)
        // The item buttons' fixed words and the add button.
        #expect(html.all("span").contains { $0["lang"] == "zh-Hans" && $0.text == "删除" })
        #expect(html.all("button").contains { $0["lang"] == "zh-Hans" && $0.text == "再添加一项" })
    }

    @Test func theDescriptorsTextsAreInTheFormsLanguage() throws {
        let form = try Fixtures.form("inscription")
        let french = try MiniHTML(Fixtures.text(Fixtures.page(form).render(state: Fixtures.stateWithErrors(form))))
        #expect(french.all("html").first?["lang"] == "fr")
        #expect(french.all("h2").first?.text == "Il y a 6 problèmes")
        #expect(Self.marks(french).isEmpty)
        let english = FormPage(
            form: form, initialState: Fixtures.initialState(form),
            texts: PageTexts(locale: "en", overrides: form.form.messages))
        let html = try MiniHTML(Fixtures.text(english.render(state: Fixtures.initialState(form))))
        #expect(html.all("html").first?["lang"] == "fr")
        #expect(html.all("span").filter { $0["class"] == "fw-required" }.allSatisfy { $0["lang"] == "en" })
        #expect(html.all("option").first { $0["value"] == "" }?["lang"] == "en")
        // The form's own submit title is French: not marked.
        #expect(html.all("button").first { $0["type"] == "submit" }?["lang"] == nil)
    }

    @Test func theThankYouPageIsInTheLanguageOfItsTitle() throws {
        let form = try Fixtures.form("inscription")
        let french = PageTexts(locale: "fr", overrides: form.form.messages)
        let html = try MiniHTML(Fixtures.text(MessagePage.thankYou(texts: french, back: "/forms/inscription").render()))
        #expect(html.all("html").first?["lang"] == "fr")
        #expect(html.all("h1").first?.text == "Merci")
        // "Back" has no French text: it is English, and says so.
        #expect(html.all("a").first?["lang"] == "en")
        let chinese = PageTexts(locale: "zh-Hans", overrides: form.form.messages)
        let page = try MiniHTML(Fixtures.text(MessagePage.thankYou(texts: chinese).render()))
        #expect(page.all("html").first?["lang"] == "zh-Hans")
        #expect(Self.marks(page).isEmpty)
    }
}
