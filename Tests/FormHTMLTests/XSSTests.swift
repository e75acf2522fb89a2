import FormHTML
import FormModel
import Foundation
import Testing

/// Payloads in every text a page shows must come out as text: no element, attribute or script of
/// their own, and the payload itself visible once decoded.
@Suite struct XSSTests {
    static let payloads = [
        "<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>", "' autofocus onfocus='x",
        "</textarea><script>alert(1)</script>", "javascript:alert(1)", "&lt;", "</script><script>alert(2)</script>",
        "<!--", "JaVaScRiPt:alert(1)", " \tjavascript:alert(1)",
    ]

    /// The elements the renderer writes; anything else came from a payload.
    static let ownElements: Set<String> = [
        "html", "head", "meta", "title", "link", "script", "body", "main", "h1", "h2", "div", "ul", "li", "a", "form",
        "input", "button", "fieldset", "legend", "label", "p", "span", "br", "select", "option", "textarea", "output",
        "template",
    ]

    /// `payload` as a tag: a tag holds no control character (FormCompiler), so the payload rides in one
    /// minus its controls; its quotes and angle brackets are the renderer's to escape.
    static func tag(_ payload: String) -> String {
        String(String.UnicodeScalarView(payload.unicodeScalars.filter { $0.properties.generalCategory != .control }))
    }

    /// A form with `payload` in every text a descriptor can carry.
    static func form(_ payload: String) throws -> CompiledForm {
        var text = Row(.text, tag: "p0", title: payload)
        text.placeholder = payload
        text.help = payload
        text.value = .text(payload)
        text.required = .always
        var area = Row(.textView, tag: "area", title: payload)
        area.value = .text(payload)
        area.placeholder = payload
        var select = Row(.selectorPush, tag: "sel", title: payload)
        select.options = [Option(payload, title: payload), Option("x", title: payload)]
        select.noValueDisplayText = payload
        select.value = .option(payload)
        var segmented = Row(.selectorSegmentedControl, tag: "seg", title: payload)
        segmented.options = select.options
        var multiple = Row(.multipleSelector, tag: "multi", title: payload)
        multiple.options = select.options
        multiple.value = .options([payload])
        var password = Row(.password, tag: "pw", title: payload)
        password.value = .text(payload)
        var button = Row(.button, tag: nil, title: payload)
        // A link must be a path or an http(s) URL (ModelChecks): the payload rides in a path, minus the
        // spaces and controls a path cannot hold; its quotes and angle brackets are the renderer's to escape.
        button.url = "/x" + String(payload.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F && $0 != "\\" })
        var upload = Row(.upload, tag: "up", title: payload)
        // An `accept` entry must be a media type or an extension (ModelChecks): the payload rides in an
        // extension, minus the commas and spaces that would split it; its quotes and angle brackets are the
        // renderer's to escape.
        upload.accept = ["." + String(payload.filter { $0 != "," && !$0.isWhitespace })]
        var hidden = Row(.text, tag: "h", title: "H")
        hidden.hidden = .predicate("$p0 == '</script><img src=x onerror=alert(1)>'")
        var section = Section(
            title: payload,
            rows: [
                text, area, select, segmented, multiple, password, button, upload, hidden,
                Row(.text, tag: tag(payload)),
            ])
        section.footer = payload
        var items = Section(title: payload, rows: [Row(.text, tag: nil, title: payload)])
        items.rows[0].value = .text(payload)
        items.multivaluedTag = "m" + tag(payload)
        items.multivaluedOptions = [.insert, .delete, .reorder]
        items.rowTemplate = Row(.text, tag: nil, title: payload)
        var form = Form(id: payload, title: payload, sections: [section, items])
        form.submitTitle = payload
        form.addAsteriskToRequiredRowsTitle = true
        return try FormCompiler().compile(form, file: "test")
    }

    /// Fresh with the payload as token, and re-rendered with the payload as every value and error.
    static func pages(_ payload: String) throws -> [String] {
        let form = try form(payload)
        let page = Fixtures.page(form)
        var state = Fixtures.initialState(form)
        state.csrfToken = payload
        for row in form.rows {
            state.values[row.index] = [payload]
            state.errors.append(PageError(row: row.index, message: payload))
        }
        state.items[1] = [payload, payload]
        state.errors.append(PageError(section: 1, position: 1, message: payload))
        state.errors.append(PageError(formMessage: payload))
        return [page.renderFresh(csrfToken: payload), page.render(state: state)].map(Fixtures.text)
    }

    static func expectNoInjection(_ text: String, payload: String, scripts: Int) throws -> MiniHTML {
        let html = try MiniHTML(text)
        #expect(html.all("script").count == scripts)
        for element in html.elements {
            #expect(ownElements.contains(element.name), "injected <\(element.name)>")
            for name in element.attributes.keys {
                #expect(!name.hasPrefix("on"), "injected \(name) on <\(element.name)>")
                if name == "autofocus" { #expect(element["id"] == "fw-summary") }
            }
            for key in ["href", "action", "src"] {
                let url = element[key]?.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() ?? ""
                #expect(!url.hasPrefix("javascript:"), "script URL in \(key)")
            }
        }
        if payload.contains("<") || payload.contains(">") {
            #expect(!text.contains(payload), "payload appears unescaped")
        }
        // A quote is harmless in text, but never inside a tag: each raw occurrence must follow a `>`.
        var rest = Substring(text)
        while payload.contains(where: { $0 == "\"" || $0 == "'" }), let range = rest.range(of: payload) {
            let before = text[..<range.lowerBound]
            let lastOpen = before.lastIndex(of: "<")
            let lastClose = before.lastIndex(of: ">")
            #expect(lastOpen == nil || (lastClose.map { $0 > lastOpen! } ?? false), "payload inside a tag")
            rest = text[range.upperBound...]
        }
        return html
    }

    @Test(arguments: payloads)
    func formPagesShowPayloadsAsText(payload: String) throws {
        for text in try Self.pages(payload) {
            // The page's own: forms-rules.js, forms.js and the rules JSON.
            let html = try Self.expectNoInjection(text, payload: payload, scripts: 3)
            #expect(html.all("title").first?.text.hasSuffix(payload) == true)
            #expect(html.all("h1").first?.text == payload)
            #expect(html.all("legend").first?.text == payload)
            #expect(html.all("option").contains { $0["value"] == payload && $0.text == payload })
            #expect(!html.elements.contains { $0["type"] == "password" && $0["value"] != nil })
        }
    }

    @Test(arguments: payloads)
    func rulesJSONStaysInsideItsScript(payload: String) throws {
        for text in try Self.pages(payload) {
            let html = try MiniHTML(text)
            let rules = try #require(html.element(id: "fw-rules")?.text)
            #expect(!rules.contains("</"))
            #expect(try JSONSerialization.jsonObject(with: Data(rules.utf8)) is [String: Any])
            #expect(rules.contains("\\u003c/script>\\u003cimg"))
        }
    }

    @Test(arguments: payloads)
    func idsAreNeverRawTags(payload: String) throws {
        let html = try MiniHTML(try Self.pages(payload)[1])
        for id in html.elements.compactMap({ $0["id"] }) {
            #expect(id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }, "id \(id)")
        }
        #expect(html.all("input").contains { $0["name"] == Self.tag(payload) })
    }

    @Test(arguments: payloads)
    func otherPagesShowPayloadsAsText(payload: String) throws {
        let index = IndexPage(entries: [IndexPage.Entry(id: payload, title: payload)]).render()
        let indexHTML = try Self.expectNoInjection(Fixtures.text(index), payload: payload, scripts: 2)
        #expect(indexHTML.all("a").first?.text == payload)
        #expect(indexHTML.all("a").first?["href"]?.hasPrefix("/forms/") == true)
        #expect(indexHTML.all("a").first?["href"]?.contains("/") == true)
        let message = MessagePage(title: payload, message: payload, language: payload, link: (payload, payload))
            .render()
        let messageHTML = try Self.expectNoInjection(Fixtures.text(message), payload: payload, scripts: 2)
        #expect(messageHTML.all("p").first?.text == payload)
    }
}
