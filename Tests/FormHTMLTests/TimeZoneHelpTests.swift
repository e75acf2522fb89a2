import FormHTML
import FormModel
import Testing

/// A reader elsewhere must know whose clock a date-time is typed on: its help names the form's zone, in
/// the page's language, linked to the control. Date-only and time-only rows name no zone.
@Suite struct TimeZoneHelpTests {
    private static func form() throws -> CompiledForm {
        let form = try FormLoader().load(
            """
            timeZone: Europe/Paris
            sections:
              - rows:
                  - { tag: at, type: datetime, title: At }
                  - { tag: noted, type: datetimeInline, title: Noted, help: "When it was written." }
                  - { tag: day, type: date, title: Day }
            """, file: "at.yaml", defaultID: "at"
        ).get()
        return try FormCompiler().compile(form, file: "at.yaml")
    }

    @Test func aDateTimeNamesTheFormsTimeZone() throws {
        let html = try MiniHTML(Fixtures.text(Fixtures.page(try Self.form()).renderFresh(csrfToken: nil)))
        #expect(html.element(id: "fw-at")?["aria-describedby"] == "fw-at-help")
        #expect(html.element(id: "fw-at-help")?.text == "Time in Europe/Paris")
        #expect(html.element(id: "fw-noted-help")?.text == "When it was written. Time in Europe/Paris")
        #expect(html.element(id: "fw-day-help") == nil)
    }

    @Test func theHelpIsInThePagesLanguage() throws {
        let form = try Self.form()
        let page = FormPage(form: form, initialState: Fixtures.initialState(form), texts: PageTexts(locale: "zh-Hans"))
        let html = try MiniHTML(Fixtures.text(page.renderFresh(csrfToken: nil)))
        #expect(html.element(id: "fw-at-help")?.text == "Europe/Paris 时间")
    }
}
