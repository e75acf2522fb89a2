import FormEngine
import FormModel
import Foundation
import HTTPServer
import HTTPTestClient
import Testing

@testable import FormServer

/// A form made from a Swift type, served, posted by a browser and by an API client, and each valid
/// submission decoded back into that type by its handler.
@Suite struct ModelFormRoutesTests {
    struct Talk: Codable, Sendable {
        enum Level: String, Codable, CaseIterable, Sendable { case beginner, advanced }
        var title: String
        var startsAt: Date
        var minutes: Int?
        var level: Level
        var recorded: Bool
        var tags: [String]
    }

    /// The hooks of an application serving `Talk`'s form: its handler answers with what it decoded.
    static func hooks() -> FormHooks {
        var hooks = FormHooks()
        hooks.serve(FormDefinition(model: Talk.self, id: "talk", title: "Propose a talk"))
        hooks.handle("talk") { submission in
            do {
                let talk = try submission.decode(Talk.self)
                return submission.json(
                    .object([
                        ("title", .string(talk.title)), ("startsAt", .number("\(talk.startsAt.timeIntervalSince1970)")),
                        ("minutes", talk.minutes.map { .integer($0) } ?? .null),
                        ("level", .string(talk.level.rawValue)),
                        ("recorded", .bool(talk.recorded)), ("tags", .array(talk.tags.map(JSONValue.string))),
                    ]))
            } catch {
                return submission.json(.object([("error", .string("\(error)"))]), status: .internalServerError)
            }
        }
        return hooks
    }

    @Test func aValidSubmissionDecodesIntoTheType() async throws {
        let (api, page, browser, refused) = try await withFormApp(hooks: Self.hooks()) { _, port in
            let session = try BrowserSession(port: port, form: "talk")
            return (
                try postJSON(
                    port, "talk",
                    #"{"title":"Forms","startsAt":"2026-11-23T12:00:00Z","level":"advanced","recorded":true,"tags":["swift","web"]}"#
                ),
                try request(port, "/forms/talk").text,
                try session.post(
                    "talk",
                    [
                        ("title", "Servers"), ("startsAt", "2026-11-23T13:30"), ("minutes", "25"),
                        ("level", "beginner"),
                        ("tags", "a"), ("tags", ""), ("tags", "b"),
                    ], accept: "application/json"),
                try postJSON(port, "talk", #"{"title":"x","level":"expert"}"#)
            )
        }
        #expect(api.status == 200)
        #expect(
            api.text
                == #"{"title":"Forms","startsAt":1795435200.0,"minutes":null,"level":"advanced","recorded":true,"tags":["swift","web"]}"#
        )
        #expect(page.contains(#"<label for="fw-startsAt">Starts At<span class="fw-required""#))
        #expect(page.contains(#"data-fw-multivalued="tags""#))
        #expect(browser.status == 200)
        // The form's zone is UTC: the browser's wall-clock time is that instant.
        #expect(browser.text.contains(#""startsAt":1795440600.0,"minutes":25,"level":"beginner","recorded":false"#))
        #expect(browser.text.contains(#""tags":["a","b"]"#))
        #expect(refused.status == 422)
        #expect(refused.text.contains(#""tag":"startsAt""#) && refused.text.contains(#""code":"unknownOption""#))
    }
}
