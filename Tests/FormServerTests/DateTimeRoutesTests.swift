import Foundation
import HTTPTestClient
import Testing

@testable import FormServer

/// Date-times end to end, over a real loopback socket, on the event form (Europe/Paris, whose clocks go
/// back from 03:00+02:00 to 02:00+01:00 on 2026-10-25 and forward past 02:00 on 2026-03-29).
@Suite struct DateTimeRoutesTests {
    /// An event body with `starts` and `ends`.
    func event(_ starts: String, _ ends: String) -> String {
        #"{"title":"x","starts":"\#(starts)","ends":"\#(ends)"}"#
    }

    @Test func thePayloadGivesBackTheInstantsSent() async throws {
        let (utc, offsets, shortOffsets) = try await withFormServer { port in
            (
                try postJSON(port, "event", event("2026-10-25T00:45:00Z", "2026-10-25T01:45:00Z")),
                try postJSON(port, "event", event("2026-10-25T02:45:00+02:00", "2026-10-25T02:30:00+01:00")),
                try postJSON(port, "event", event("2026-11-23T12:00:00+0100", "2026-11-23T12:00+00"))
            )
        }
        #expect(utc.status == 200)
        #expect(
            utc.text.hasPrefix(
                #"{"httpParameters":{"title":"x","location":null,"all-day":false,"starts":"2026-10-25T02:45:00+02:00","ends":"2026-10-25T02:45:00+01:00","#
            ))
        #expect(
            utc.text.contains(
                #""formValues":{"title":"x","all-day":false,"starts":"2026-10-25T02:45:00+02:00","ends":"2026-10-25T02:45:00+01:00","#
            ))
        // The end is earlier on the wall clock but 45 minutes after the start.
        #expect(offsets.status == 200)
        #expect(offsets.text.contains(#""starts":"2026-10-25T02:45:00+02:00","ends":"2026-10-25T02:30:00+01:00""#))
        #expect(shortOffsets.status == 200)
        #expect(shortOffsets.text.contains(#""starts":"2026-11-23T12:00:00+01:00","ends":"2026-11-23T13:00:00+01:00""#))
    }

    /// The reviewer's request: an end later on the wall clock, 45 minutes earlier in time.
    @Test func anEndBeforeTheStartAsAnInstantIsRefused() async throws {
        let response = try await withFormServer { port in
            try postJSON(port, "event", event("2026-10-25T02:30:00+01:00", "2026-10-25T02:45:00+02:00"))
        }
        #expect(response.status == 422)
        #expect(
            response.text
                == #"{"errors":[{"tag":"ends","message":"The event must end after it starts","code":"predicate"}]}"#)
    }

    @Test func aTimeTheClocksSkipIsRefusedInTheReadersLanguage() async throws {
        let (english, chinese) = try await withFormServer { port in
            let body = event("2026-03-29T02:30", "2026-03-29T04:00")
            return (
                try postJSON(port, "event", body),
                try postJSON(port, "event", body, headers: ["Accept-Language": "zh-CN"])
            )
        }
        #expect(english.status == 422)
        #expect(
            english.text
                == #"{"errors":[{"tag":"starts","message":"Starts does not exist in the time zone Europe/Paris: the clocks skip that time","code":"skippedDateTime"}]}"#
        )
        #expect(chinese.status == 422)
        #expect(chinese.text.contains(#""message":"Starts在时区 Europe/Paris 中不存在：时钟会跳过这一时间""#))
    }

    /// A browser post re-rendered: each datetime-local control shows Paris's reading of the instant sent.
    @Test func theReRenderedPageShowsTheZonesWallClockTime() async throws {
        let page = try await withFormServer { port in
            try BrowserSession(port: port, form: "event").post(
                "event", [("title", "x"), ("starts", "2026-10-25T01:30:00Z"), ("ends", "2026-10-25T00:45:00Z")])
        }
        #expect(page.status == 422)
        #expect(page.text.contains("The event must end after it starts"))
        let starts = try #require(Self.inputTag(id: "fw-starts", in: page.text))
        #expect(starts.contains(#"type="datetime-local""#))
        #expect(starts.contains(#"value="2026-10-25T02:30""#))
        let ends = try #require(Self.inputTag(id: "fw-ends", in: page.text))
        #expect(ends.contains(#"type="datetime-local""#))
        #expect(ends.contains(#"value="2026-10-25T02:45""#))
    }

    /// `POST /forms/{id}/explain` gives each row's value as the payload writes it.
    @Test func theExplanationAgreesWithThePayload() async throws {
        let (explained, answered) = try await withFormServer(explain: true) { port in
            let body = event("2026-10-25T01:30:00Z", "2026-10-25T03:00:00+01:00")
            return (try postJSON(port, "event", body, path: "/forms/event/explain"), try postJSON(port, "event", body))
        }
        #expect(explained.status == 200)
        #expect(answered.status == 200)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(explained.text.utf8)) as? [String: Any])
        let rows = try #require(json["rows"] as? [[String: Any]])
        let values = Dictionary(
            uniqueKeysWithValues: rows.compactMap { row in
                (row["tag"] as? String).map { ($0, row["value"] as? String) }
            })
        #expect(values["starts"] == "2026-10-25T02:30:00+01:00")
        #expect(values["ends"] == "2026-10-25T03:00:00+01:00")
        let parameters = try #require(json["httpParameters"] as? [String: Any])
        #expect(parameters["starts"] as? String == "2026-10-25T02:30:00+01:00")
        #expect(answered.text.contains(#""starts":"2026-10-25T02:30:00+01:00","ends":"2026-10-25T03:00:00+01:00""#))
    }

    /// The `<input …>` tag with `id`, as the page writes it.
    static func inputTag(id: String, in html: String) -> String? {
        guard let idRange = html.range(of: #"id="\#(id)""#),
            let start = html[..<idRange.lowerBound].range(of: "<input", options: .backwards),
            let end = html[idRange.upperBound...].firstIndex(of: ">")
        else { return nil }
        return String(html[start.lowerBound...end])
    }
}
