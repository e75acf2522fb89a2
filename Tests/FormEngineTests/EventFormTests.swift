import FormEngine
import FormModel
import Testing

/// The seed's calendar event form, judged on the server.
@Suite struct EventFormTests {
    let engine = Fixtures.engine("event")

    @Test func validEventYieldsXLFormPayload() throws {
        let verdict = engine.evaluate(Fixtures.event([:]))
        #expect(verdict.errors.isEmpty)
        let parameters = verdict.httpParameters
        #expect(parameters["title"] == .string("Team lunch"))
        #expect(parameters["all-day"] == .bool(false))
        #expect(parameters["alert"] == .string("15m"))
        #expect(parameters["second-alert"] == .string("5m"))
        #expect(parameters["guests"] == .integer(8))
        // Paris is UTC+1 in November: the instant is unambiguous.
        #expect(parameters["starts"] == .string("2026-11-23T12:00:00+01:00"))
        let option = try #require(verdict.formValues["alert"])
        #expect(option == .object([("value", .string("15m")), ("title", .string("15 minutes before"))]))
        #expect(verdict.payloadJSON.text.hasPrefix(#"{"httpParameters":{"title":"Team lunch","location":"Canteen""#))
    }

    @Test func emptySubmissionReportsEveryRequiredRowInOrder() {
        let verdict = engine.evaluate(SubmittedFields())
        #expect(verdict.codes == ["title:required", "starts:required", "ends:required"])
        #expect(
            verdict.errors.map(\.message) == ["Title can't be empty", "Starts can't be empty", "Ends can't be empty"])
    }

    @Test func chineseMessages() {
        let verdict = engine.evaluate(SubmittedFields(), locale: "zh-Hans")
        #expect(verdict.errors.first?.message == "Title不能为空")
    }

    @Test func secondAlertIsHiddenAndDroppedWhenAlertIsNever() {
        let verdict = engine.evaluate(Fixtures.event(["alert": "never", "second-alert": "1d"]))
        #expect(verdict.isValid)
        #expect(verdict.httpParameters["second-alert"] == nil)
        #expect(verdict.httpParameters["alert"] == .string("never"))
    }

    @Test func hiddenRowIsNotValidatedEvenWithGarbage() {
        let verdict = engine.evaluate(Fixtures.event(["alert": "never", "second-alert": "<script>"]))
        #expect(verdict.isValid)
        #expect(!verdict.payloadJSON.text.contains("script"))
    }

    @Test func endBeforeStartFailsThePredicateValidatorWithItsMessage() {
        let verdict = engine.evaluate(Fixtures.event(["ends": "2026-11-23T11:00"]))
        #expect(verdict.codes == ["ends:predicate"])
        #expect(verdict.errors.first?.message == "The event must end after it starts")
    }

    @Test(arguments: [
        ("guests", "abc", "notAnInteger"), ("guests", "8.5", "notAnInteger"), ("guests", "101", "max"),
        ("guests", "-1", "min"), ("starts", "tomorrow", "notADateTime"), ("alert", "2h", "unknownOption"),
        ("email", "not-an-email", "email"), ("url", "javascript:alert(1)", "urlScheme"),
        ("all-day", "maybe", "notABoolean"),
    ])
    func badValuesAreRefusedWithTheirCode(field: String, value: String, code: String) {
        let verdict = engine.evaluate(Fixtures.event([field: value]))
        #expect(verdict.codes == ["\(field):\(code)"])
        #expect(verdict.httpParameters[field] != nil)  // the payload is only sent when valid, but stays typed
    }

    @Test func maxLengthIsEnforcedOnTheServer() {
        let verdict = engine.evaluate(Fixtures.event(["title": String(repeating: "x", count: 101)]))
        #expect(verdict.codes == ["title:maxLength"])
        #expect(verdict.errors.first?.message == "Title must be at most 100 characters")
    }

    @Test(arguments: ["   ", "\u{200B}", " \u{3164} ", "\u{2800}", "\u{200D}\u{FEFF}"])
    func blankTitleIsEmpty(title: String) {
        #expect(engine.evaluate(Fixtures.event(["title": title])).codes == ["title:required"])
    }

    @Test func dateTimeWithOffsetIsReadInTheFormsZone() {
        let verdict = engine.evaluate(Fixtures.event(["starts": "2026-11-23T11:00:00Z"]))
        #expect(verdict.isValid)
        #expect(verdict.httpParameters["starts"] == .string("2026-11-23T12:00:00+01:00"))
    }

    @Test func duplicateFieldIsAnErrorNotAChoice() {
        var pairs = Fixtures.validEvent
        pairs.append(("alert", "never"))
        let verdict = engine.evaluate(Fixtures.post(pairs))
        #expect(verdict.codes == ["alert:sentMoreThanOnce"])
    }

    @Test func unknownFieldsAreIgnoredAndNeverEchoed() {
        var pairs = Fixtures.validEvent
        pairs.append(("admin", "true"))
        let verdict = engine.evaluate(Fixtures.post(pairs))
        #expect(verdict.isValid)
        #expect(!verdict.payloadJSON.text.contains("admin"))
    }

    @Test func explanationSaysWhichConditionDecided() throws {
        let verdict = engine.evaluate(Fixtures.event(["alert": "never"]), explain: true)
        let rows = try #require(verdict.explanationJSON["rows"])
        guard case .array(let list) = rows else { Issue.record("rows is not an array"); return }
        let second = try #require(list.first { $0["tag"] == .string("second-alert") })
        let hidden = try #require(second["hidden"])
        #expect(hidden["value"] == .bool(true))
        #expect(hidden["decidedBy"]?["predicate"] == .string("$alert == 'never'"))
        #expect(hidden["decidedBy"]?["read"]?["alert.value"] == .string("never"))
        #expect(verdict.explanationJSON["valid"] == .bool(true))
    }
}
