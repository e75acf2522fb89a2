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

    /// The word-at-a-time check that a value needs no escaping (a page's token is written with it)
    /// agrees with the escaper for every byte value at every position of values of 1 to 40 bytes: the
    /// words' edges, the overlapping last word, and the bytes next to those escaped (`%`, `(`, `;`,
    /// `=`, `?`, `!`, `#`, 0x01) included.
    @Test func unchangedAttributeValuesAreFoundWordByWord() {
        var disagreements: [String] = []
        for length in 1...40 {
            for position in 0..<length {
                for byte in UInt8.min...UInt8.max {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[position] = byte
                    // Bytes from 0x80 are never escaped; ASCII ones are asked of the escaper itself.
                    let expected =
                        byte >= 0x80 || HTML(attributeValue: String(decoding: bytes, as: UTF8.self)).bytes == bytes
                    let found = bytes.withUnsafeBufferPointer { HTMLEscaping.isUnchanged(attributeValue: $0) }
                    if found != expected { disagreements.append("byte \(byte) at \(position) of \(length)") }
                }
            }
        }
        let disagreed = disagreements.count
        #expect(disagreed == 0, "the first: \(disagreements.prefix(10))")
        #expect([UInt8]().withUnsafeBufferPointer { HTMLEscaping.isUnchanged(attributeValue: $0) })
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
