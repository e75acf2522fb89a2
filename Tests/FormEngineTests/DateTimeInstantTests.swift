import FormEngine
import FormModel
import FormPredicate
import Testing

/// The event form (Europe/Paris) across the 2026 changes of offset: a date-time sent is the instant it
/// names, written at the offset Paris has then, and conditions and validators order instants.
/// On 2026-10-25 Paris goes from 03:00+02:00 back to 02:00+01:00 (01:00Z); on 2026-03-29 from
/// 02:00+01:00 forward to 03:00+02:00.
@Suite struct DateTimeInstantTests {
    let engine = Fixtures.engine("event")

    /// The payload's `starts` for `starts` sent, `ends` an hour after the year's end so it always passes.
    func starts(_ sent: String) -> JSONValue? {
        let verdict = engine.evaluate(Fixtures.event(["starts": sent, "ends": "2027-01-01T00:00Z"]))
        #expect(verdict.isValid, "\(sent): \(verdict.codes)")
        return verdict.httpParameters["starts"]
    }

    @Test(
        arguments: [
            // An offset in either half of the overlap, and the UTC instants either side of the change.
            ("2026-10-25T02:30:00+01:00", "2026-10-25T02:30:00+01:00"),
            ("2026-10-25T02:45:00+02:00", "2026-10-25T02:45:00+02:00"),
            ("2026-10-25T00:45:00Z", "2026-10-25T02:45:00+02:00"),
            ("2026-10-25T01:45:00Z", "2026-10-25T02:45:00+01:00"),
            ("2026-10-25T00:30:00Z", "2026-10-25T02:30:00+02:00"),
            ("2026-10-25T01:30:00Z", "2026-10-25T02:30:00+01:00"),
            // Summer and winter time far from a change; an offset that is not Paris's.
            ("2026-07-01T10:00:00Z", "2026-07-01T12:00:00+02:00"),
            ("2026-11-23T06:00:00-05:00", "2026-11-23T12:00:00+01:00"),
            // ISO 8601's basic (`+0100`) and hour-only (`+01`) offsets.
            ("2026-11-23T12:00:00+0100", "2026-11-23T12:00:00+01:00"),
            ("2026-11-23T13:00+02", "2026-11-23T12:00:00+01:00"),
            ("2026-10-25T01:30:00+0000", "2026-10-25T02:30:00+01:00"),
            // A wall-clock time the clocks show twice is the first one.
            ("2026-10-25T02:30", "2026-10-25T02:30:00+02:00"),
            ("2026-10-25 02:59:59", "2026-10-25T02:59:59+02:00"),
        ] as [(String, String)])
    func anInstantSentComesBackAsTheSameInstant(sent: String, payload: String) {
        #expect(starts(sent) == .string(payload), "\(sent)")
    }

    @Test func aTimeTheClocksSkipIsRefusedNamingTheZone() throws {
        let english = engine.evaluate(Fixtures.event(["starts": "2026-03-29T02:30", "ends": "2026-03-29T04:00"]))
        #expect(english.codes == ["starts:skippedDateTime"])
        #expect(
            english.errors.first?.message
                == "Starts does not exist in the time zone Europe/Paris: the clocks skip that time")
        let chinese = engine.evaluate(
            Fixtures.event(["starts": "2026-03-29T02:00", "ends": "2026-03-29T04:00"]), locale: "zh-Hans")
        #expect(chinese.codes == ["starts:skippedDateTime"])
        #expect(chinese.errors.first?.message == "Starts在时区 Europe/Paris 中不存在：时钟会跳过这一时间")
        #expect(chinese.errors.first?.language == "zh-Hans")
        // Either side of the gap is an ordinary time.
        #expect(starts("2026-03-29T01:59") == .string("2026-03-29T01:59:00+01:00"))
        #expect(starts("2026-03-29T03:00") == .string("2026-03-29T03:00:00+02:00"))
        // With an offset the same reading is an instant like any other.
        #expect(starts("2026-03-29T02:30+01:00") == .string("2026-03-29T03:30:00+02:00"))
    }

    @Test(arguments: ["2026-11-23T12:00+1", "2026-11-23T12:00+01:0", "2026-11-23T12:00+25:00", "2026-11-23T12:00+0160"])
    func anOffsetISO8601DoesNotWriteIsRefused(sent: String) {
        let verdict = engine.evaluate(Fixtures.event(["starts": sent]))
        #expect(verdict.codes == ["starts:notADateTime"])
    }

    /// `$ends >= $starts` compares instants: an end later on the wall clock but earlier in time is refused.
    @Test func theEndMustNotBeBeforeTheStartAsAnInstant() {
        let backwards = engine.evaluate(
            Fixtures.event(["starts": "2026-10-25T02:30:00+01:00", "ends": "2026-10-25T02:45:00+02:00"]))
        #expect(backwards.codes == ["ends:predicate"])
        #expect(backwards.errors.first?.message == "The event must end after it starts")
        // Earlier on the wall clock, but 45 minutes later in time.
        let forwards = engine.evaluate(
            Fixtures.event(["starts": "2026-10-25T02:45:00+02:00", "ends": "2026-10-25T02:30:00+01:00"]))
        #expect(forwards.isValid)
        // A bare 02:45 is the first one (+02:00), so an end at the second 02:30 (+01:00) is after it.
        let wallClock = engine.evaluate(Fixtures.event(["starts": "2026-10-25T02:45", "ends": "2026-10-25T01:30Z"]))
        #expect(wallClock.isValid)
        // The same instant written two ways is equal, so `>=` holds.
        let same = engine.evaluate(Fixtures.event(["starts": "2026-10-25T02:45", "ends": "2026-10-25T00:45:00Z"]))
        #expect(same.isValid)
    }

    /// Conditions read a date-time as its instant in UTC; the verdict's payloads and explanation agree.
    @Test func explanationPayloadAndConditionsAgree() throws {
        let verdict = engine.evaluate(
            Fixtures.event(["starts": "2026-10-25T01:30:00Z", "ends": "2026-10-25T02:45:00+02:00"]), explain: true)
        let explanation = verdict.explanationJSON
        #expect(explanation["httpParameters"]?["starts"] == .string("2026-10-25T02:30:00+01:00"))
        #expect(explanation["formValues"]?["ends"] == .string("2026-10-25T02:45:00+02:00"))
        guard case .array(let rows)? = explanation["rows"] else { Issue.record("no rows"); return }
        let ends = try #require(rows.first { $0["tag"] == .string("ends") })
        let starts = try #require(rows.first { $0["tag"] == .string("starts") })
        #expect(starts["value"] == .string("2026-10-25T02:30:00+01:00"))
        #expect(ends["value"] == .string("2026-10-25T02:45:00+02:00"))
        #expect(verdict.codes == ["ends:predicate"])
        #expect(verdict.payloadJSON.text.contains(#""starts":"2026-10-25T02:30:00+01:00""#))
        #expect(verdict.payloadJSONBytes == verdict.payloadJSON.bytes)
    }

    @Test func aPageShowsTheZonesWallClockReadingOfTheInstant() {
        let verdict = engine.evaluate(
            Fixtures.event(["starts": "2026-10-25T01:30:00Z", "ends": "2026-10-25T00:45:00Z"]))
        #expect(verdict.codes == ["ends:predicate"])
        let starts = verdict.form.rowIndex["starts"]!
        let ends = verdict.form.rowIndex["ends"]!
        #expect(verdict.entered[starts] == ["2026-10-25T02:30"])
        #expect(verdict.entered[ends] == ["2026-10-25T02:45"])
        // What cannot be read is shown as it was sent, beside its error.
        let skipped = engine.evaluate(Fixtures.event(["starts": "2026-03-29T02:30"]))
        #expect(skipped.entered[starts] == ["2026-03-29T02:30"])
    }

    /// `min` and `max` on a date-time row, and their validators, order instants too.
    @Test func boundsOrderInstants() throws {
        let form = try FormLoader().load(
            """
            timeZone: Europe/Paris
            sections:
              - rows:
                  - { tag: at, type: datetime, title: At, min: "2026-10-25T02:30+01:00" }
                  - tag: until
                    type: datetime
                    title: Until
                    validators: [{ kind: max, value: "2026-10-25T02:30" }]
            """, file: "bounds.yaml", defaultID: "bounds"
        ).get()
        let engine = FormEngine(form: try FormCompiler().compile(form, file: "bounds.yaml"))
        // The first 02:45 is 45 minutes before the second 02:30.
        let early = engine.evaluate(Fixtures.post([("at", "2026-10-25T02:45"), ("until", "2026-10-25T02:45")]))
        #expect(early.codes == ["at:min", "until:max"])
        #expect(early.errors.first?.message == "At must be at least 2026-10-25T02:30")
        let late = engine.evaluate(
            Fixtures.post([("at", "2026-10-25T01:30Z"), ("until", "2026-10-25T02:29:59+02:00")]))
        #expect(late.isValid)
        let after = engine.evaluate(Fixtures.post([("until", "2026-10-25T02:30:00+01:00")]))
        #expect(after.codes == ["until:max"])
    }

    /// A multivalued section's date-times are read, and shown again, like a row's.
    @Test func multivaluedDateTimesAreReadInTheZone() throws {
        let form = try FormLoader().load(
            """
            timeZone: Europe/Paris
            sections:
              - multivaluedTag: dates
                multivaluedOptions: [insert]
                rowTemplate: { type: datetime, title: Date }
                rows: [{ type: datetime, title: Date, value: "2026-10-25T01:30Z" }]
            """, file: "list.yaml", defaultID: "list"
        ).get()
        let engine = FormEngine(form: try FormCompiler().compile(form, file: "list.yaml"))
        #expect(engine.initial().httpParameters["dates"]?.text == #"["2026-10-25T02:30:00+01:00"]"#)
        let verdict = engine.evaluate(
            Fixtures.post([("dates", "2026-10-25T00:30Z"), ("dates", "2026-03-29T02:30"), ("dates", "x")]))
        #expect(verdict.codes == ["dates[1]:skippedDateTime", "dates[2]:notADateTime"])
        #expect(verdict.enteredItems[0] == ["2026-10-25T02:30", "2026-03-29T02:30", "x"])
    }
}
