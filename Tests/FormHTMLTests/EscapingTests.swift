import Testing

@testable import FormHTML

/// The two escaping functions and the URL rules.
@Suite struct EscapingTests {
    @Test func textEscapingLeavesQuotes() {
        #expect(Fixtures.text(HTML(text: "a<b>&\"'").bytes) == "a&lt;b&gt;&amp;\"'")
    }

    @Test func attributeEscapingEscapesBothQuotes() {
        #expect(Fixtures.text(HTML(attributeValue: "a<b>&\"'").bytes) == "a&lt;b&gt;&amp;&quot;&#39;")
    }

    @Test func plainTextIsCopiedAsIs() {
        #expect(Fixtures.text(HTML(text: "Événement 活动 ✓").bytes) == "Événement 活动 ✓")
    }

    @Test func scriptJSONHasNoLessThan() {
        var writer = HTMLWriter()
        writer.scriptJSON("{\"a\":\"</script><!--\"}")
        #expect(Fixtures.text(writer.bytes) == "{\"a\":\"\\u003c/script>\\u003c!--\"}")
    }

    @Test(arguments: [
        "javascript:alert(1)", "JAVASCRIPT:x", " javascript:x", "java\tscript:x", "data:text/html,x", "vbscript:x", "",
    ])
    func scriptURLsAreRefused(url: String) {
        #expect(SafeURL.link(url) == nil)
    }

    @Test(arguments: ["https://example.com", "http://x", "/forms/event", "mailto:a@b.c", "tel:+33", "a/b:c", "#top"])
    func ordinaryURLsAreKept(url: String) {
        #expect(SafeURL.link(url) == url)
    }

    @Test func idsAreSanitisedAndUnique() {
        var ids = FieldIDs()
        let made = ["all-day", "all_day", "<x>", "", "form", "a b"].map { ids.make($0) }
        #expect(made == ["fw-all_day", "fw-all_day_2", "fw-_x_", "fw-_", "fw-form_2", "fw-a_b"])
    }
}
