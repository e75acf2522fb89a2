import Foundation
import HTTPTestClient
import Testing

extension CommandSuites {
    /// `formwright render`: a form's page from its descriptor file, fresh or answering a submission.
    @Suite struct RenderCommandTests {
        @Test func freshPageIsTheServedPageWithoutAToken() async throws {
            try await offPool {
                let rendered = try runFormwright(["render", "Forms/event.json"], input: "")
                #expect(rendered.status == 0)
                #expect(rendered.output.hasPrefix("<!doctype html>"))
                #expect(
                    rendered.output.contains(#"<form id="fw-form" method="post" action="/forms/event" novalidate>"#))
                #expect(!rendered.output.contains(#"name="_csrf""#))
                // The same bytes a browser gets from `serve`, once its token field is taken out.
                let server = try FormwrightProcess(["serve", "--port", "0"])
                defer {
                    server.signal(SIGTERM)
                    _ = server.waitForExit()
                }
                let port = try #require(server.listeningPort())
                let answer = try exchange(
                    port: port, "GET /forms/event HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                let served = try #require(answer.range(of: "\r\n\r\n").map { String(answer[$0.upperBound...]) })
                let withoutToken = served.replacing(/<input type="hidden" name="_csrf" value="[^"]*">\n/, with: "")
                #expect(withoutToken == rendered.output)
            }
        }

        @Test func invalidSubmissionGivesThePageWithValuesAndErrorsAndExits1() async throws {
            try await offPool {
                let rendered = try runFormwright(
                    ["render", "Forms/event.json", "--submission", "--locale", "zh-Hans"],
                    input: #"{"location":"Canteen","alert":"15m"}"#)
                #expect(rendered.status == 1)
                #expect(rendered.output.contains("Title不能为空"))
                #expect(rendered.output.contains(#"aria-invalid="true""#))
                #expect(rendered.output.contains(#"value="Canteen""#))
                // alert is no longer "never", so the second alert shows.
                #expect(!rendered.output.contains(#"id="fw-second_alert-row" data-fw-row="7" hidden"#))
            }
        }

        @Test func validSubmissionPrintsNoPageAndNamesTheRedirect() async throws {
            try await offPool {
                let input = #"{"title":"Lunch","starts":"2026-11-23T12:00","ends":"2026-11-23T13:00"}"#
                let rendered = try runFormwright(["render", "Forms/event.json", "--submission"], input: input)
                #expect(rendered.status == 0)
                #expect(rendered.output.isEmpty)
                #expect(rendered.errors.contains("redirected to /forms/event/thanks"))
            }
        }

        @Test func unreadableFormOrInputExits2WithAMessage() async throws {
            try await offPool {
                let missing = try runFormwright(["render", "Forms/nope.json"], input: "")
                #expect(missing.status == 2)
                #expect(missing.errors.contains("Forms/nope.json"))
                let badInput = try runFormwright(["render", "Forms/event.json", "--submission"], input: "[1]")
                #expect(badInput.status == 2)
                #expect(badInput.errors.contains("a JSON submission must be an object"))
            }
        }
    }
}
