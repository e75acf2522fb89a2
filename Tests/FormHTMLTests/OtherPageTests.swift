import FormHTML
import FormModel
import Testing

/// The index, message pages and the localised texts.
@Suite struct OtherPageTests {
    @Test func indexLinksEveryForm() throws {
        let page = IndexPage(entries: [IndexPage.Entry(id: "event", title: "Add Event"), IndexPage.Entry(id: "a b")])
        let html = try MiniHTML(Fixtures.text(page.render()))
        #expect(html.all("a").map { $0["href"] } == ["/forms/event", "/forms/a%20b"])
        #expect(html.all("a").map(\.text) == ["Add Event", "a b"])
        #expect(html.all("h1").first?.text == "Forms")
    }

    @Test func thankYouPageIsLocalised() throws {
        let english = try MiniHTML(Fixtures.text(MessagePage.thankYou(texts: PageTexts(locale: "en")).render()))
        #expect(english.all("h1").first?.text == "Thank you")
        let chinese = try MiniHTML(Fixtures.text(MessagePage.thankYou(texts: PageTexts(locale: "zh-CN")).render()))
        #expect(chinese.all("h1").first?.text == "谢谢")
        #expect(chinese.all("html").first?["lang"] == "zh-Hans")
    }

    @Test func messageLinksRunningScriptAreDropped() throws {
        let page = MessagePage(title: "T", message: "M", link: ("javascript:alert(1)", "Back"))
        #expect(try MiniHTML(Fixtures.text(page.render())).all("a").isEmpty)
        let safe = MessagePage(title: "T", message: "M", link: ("/forms/event", "Back"))
        #expect(try MiniHTML(Fixtures.text(safe.render())).all("a").first?["href"] == "/forms/event")
    }

    @Test(arguments: [
        ("zh", "zh-Hans"), ("zh-CN", "zh-Hans"), ("zh-Hans", "zh-Hans"), ("zh_Hans_CN", "zh-Hans"), ("zh-TW", "en"),
        ("zh-Hant", "en"), ("en", "en"), ("fr", "en"), ("", "en"),
    ])
    func localeChoosesTheTexts(locale: String, language: String) {
        #expect(PageTexts(locale: locale).language == language)
    }

    @Test func problemCountIsInTheHeading() {
        #expect(PageTexts.english.problems(1) == "There is a problem")
        #expect(PageTexts.english.problems(3) == "There are 3 problems")
        #expect(PageTexts.chinese.problems(3) == "有 3 个问题")
    }

    @Test func chineseFormShowsChineseTexts() throws {
        var form = try Fixtures.form("multivalued").form
        form.locale = "zh-CN"
        form.submitTitle = nil
        let compiled = try FormCompiler().compile(form, file: "test")
        let html = try MiniHTML(Fixtures.text(Fixtures.page(compiled).renderFresh(csrfToken: nil)))
        #expect(html.all("html").first?["lang"] == "zh-CN")
        #expect(html.all("button").contains { $0.text == "提交" })
        #expect(html.all("button").contains { $0.text == "再添加一项" })
    }

    @Test func formMessagesOverrideTheBuiltInTexts() throws {
        var form = try Fixtures.form("multivalued").form
        form.messages = ["en": ["addAnother": "One more tag"]]
        let compiled = try FormCompiler().compile(form, file: "test")
        let html = try MiniHTML(Fixtures.text(Fixtures.page(compiled).renderFresh(csrfToken: nil)))
        #expect(html.all("button").contains { $0.text == "One more tag" })
    }
}

@Suite struct FreshPartsTests {
    /// A token that stands as it is, between the parts a server keeps around it, is exactly the fresh
    /// page; one that needs escaping is not verbatim, and the server renders the page instead.
    @Test func freshPartsAroundAVerbatimTokenAreTheFreshPage() throws {
        let page = Fixtures.page(try Fixtures.form("multivalued"))
        let (prefix, suffix) = page.freshPartsAroundToken
        #expect(FormPage.isVerbatim(csrfToken: "abc-_123"))
        #expect(prefix + Array("abc-_123".utf8) + suffix == page.renderFresh(csrfToken: "abc-_123"))
        for token in ["a\"b", "<", ">", "&", "'", "a\u{0}b"] { #expect(!FormPage.isVerbatim(csrfToken: token)) }
    }
}
