import FormEngine
import FormModel
import Testing

/// `payloadJSONBytes` (written in one pass, the server's answer to a valid API submission) must be
/// byte for byte the JSON of `payloadJSON` (the tree the rest of the engine builds).
@Suite struct PayloadBytesTests {
    static let formIDs = Fixtures.catalog.ids

    @Test(arguments: formIDs)
    func defaultsOfEveryExampleForm(id: String) {
        let verdict = Fixtures.engine(id).evaluate(SubmittedFields(), locale: "en")
        #expect(verdict.payloadJSONBytes == verdict.payloadJSON.bytes)
    }

    @Test func eventWithOffsetsEscapesAndAHiddenRow() {
        let engine = Fixtures.engine("event")
        for changes: [String: String?] in [
            [:], ["repeat": "weekly", "notes": "a \"quoted\" <b>&</b>\n\u{1}"], ["starts": "2026-03-29T01:30"],
            ["title": "日本語 ✓", "second-alert": nil],
        ] {
            let verdict = engine.evaluate(Fixtures.event(changes), locale: "en")
            #expect(verdict.payloadJSONBytes == verdict.payloadJSON.bytes)
        }
    }

    @Test func optionsAndMultipleSelections() {
        let verdict = Fixtures.engine("selectors").evaluate(
            Fixtures.post([
                ("push", "green"), ("popover", "large"), ("toppings", "ham"), ("toppings", "olives"), ("days", "tue"),
            ]), locale: "en")
        #expect(verdict.isValid)
        #expect(verdict.payloadJSONBytes == verdict.payloadJSON.bytes)
    }

    @Test func multivaluedItemsAndUploads() {
        let tags = Fixtures.engine("multivalued").evaluate(
            Fixtures.post([("tags", "one"), ("tags", "t\"wo")]), locale: "en")
        #expect(tags.payloadJSONBytes == tags.payloadJSON.bytes)
        var fields = SubmittedFields()
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]
        fields.append("photo", .file(UploadedFile(filename: "me.png", contentType: "image/png", bytes: png)))
        let upload = Fixtures.engine("others").evaluate(fields, locale: "en")
        #expect(upload.payloadJSONBytes == upload.payloadJSON.bytes)
        #expect(String(decoding: upload.payloadJSONBytes, as: UTF8.self).contains(#""filename":"me.png""#))
    }
}
