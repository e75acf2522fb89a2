import FormHTML
import FormModel
import Foundation
import Testing

/// A `datetime-local` control holds the form zone's wall-clock reading, and the script gets the zone.
@Suite struct DateTimeControlTests {
    @Test func aDateTimeControlShowsTheZonesReadingOfItsInstant() throws {
        let form = try FormLoader().load(
            """
            timeZone: Europe/Paris
            sections:
              - rows:
                  - { tag: at, type: datetime, title: At, value: "2026-10-25T01:30Z", min: "2026-07-01T08:00:00+00:00" }
            """, file: "at.yaml", defaultID: "at"
        ).get()
        let html = try MiniHTML(
            Fixtures.text(Fixtures.page(try FormCompiler().compile(form, file: "at.yaml")).renderFresh(csrfToken: nil)))
        let input = try #require(html.element(id: "fw-at"))
        #expect(input["type"] == "datetime-local")
        #expect(input["value"] == "2026-10-25T02:30")
        #expect(input["min"] == "2026-07-01T10:00")
        let rules = try #require(html.element(id: "fw-rules")?.text)
        #expect(rules.contains(#""timeZone":"Europe/Paris""#))
    }

    /// Only a form with date-times needs its zone in the rules.
    @Test(arguments: [("event", true), ("dates", true), ("pets", false), ("selectors", false)])
    func theRulesCarryTheZoneWhenARowHoldsDateTimes(id: String, carries: Bool) throws {
        let form = try Fixtures.form(id)
        let html = try MiniHTML(Fixtures.text(Fixtures.page(form).renderFresh(csrfToken: nil)))
        let rules = try #require(html.element(id: "fw-rules")?.text)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(rules.utf8)) as? [String: Any])
        #expect(json["timeZone"] as? String == (carries ? form.form.timeZone : nil))
    }
}
