import Foundation
import HTTPTestClient
import Testing

extension CommandSuites {
    /// `formwright evaluate`: the verdict on stdin's JSON, explained.
    @Suite struct EvaluateCommandTests {
        /// Runs `formwright evaluate` with `input` on stdin; returns the exit status, stdout and stderr.
        func evaluate(_ arguments: [String], input: String) throws -> (status: Int32, output: String, errors: String) {
            try runFormwright(["evaluate"] + arguments, input: input)
        }

        @Test func validSubmissionExits0WithBothPayloadsAndEveryRowsState() async throws {
            try await offPool {
                let input =
                    #"{"title":"Lunch","starts":"2026-11-23T12:00","ends":"2026-11-23T13:00","alert":"never","second-alert":"1d"}"#
                let result = try evaluate(["Forms/event.json"], input: input)
                #expect(result.status == 0)
                let json = try #require(
                    try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
                #expect(json["valid"] as? Bool == true)
                let parameters = try #require(json["httpParameters"] as? [String: Any])
                #expect(parameters["title"] as? String == "Lunch")
                #expect(parameters["second-alert"] == nil)
                let rows = try #require(json["rows"] as? [[String: Any]])
                let second = try #require(rows.first { $0["tag"] as? String == "second-alert" })
                let hidden = try #require(second["hidden"] as? [String: Any])
                #expect(hidden["value"] as? Bool == true)
                let decidedBy = try #require(hidden["decidedBy"] as? [String: Any])
                #expect(decidedBy["predicate"] as? String == "$alert == 'never'")
                #expect((decidedBy["read"] as? [String: Any])?["alert.value"] as? String == "never")
            }
        }

        /// Date-times with offsets keep their instants: the verdict's payloads and rows agree, and the
        /// predicate validator compares instants (the second end is later on the wall clock, earlier in time).
        @Test func dateTimesKeepTheirInstantsInEveryPartOfTheVerdict() async throws {
            try await offPool {
                let valid = try evaluate(
                    ["Forms/event.json"],
                    input: #"{"title":"x","starts":"2026-10-25T00:45:00Z","ends":"2026-10-25T02:45+01"}"#)
                #expect(valid.status == 0)
                let json = try #require(
                    try JSONSerialization.jsonObject(with: Data(valid.output.utf8)) as? [String: Any])
                for payload in ["httpParameters", "formValues"] {
                    let values = try #require(json[payload] as? [String: Any])
                    #expect(values["starts"] as? String == "2026-10-25T02:45:00+02:00")
                    #expect(values["ends"] as? String == "2026-10-25T02:45:00+01:00")
                }
                let rows = try #require(json["rows"] as? [[String: Any]])
                #expect(
                    rows.first { $0["tag"] as? String == "starts" }?["value"] as? String == "2026-10-25T02:45:00+02:00")
                #expect(
                    rows.first { $0["tag"] as? String == "ends" }?["value"] as? String == "2026-10-25T02:45:00+01:00")
                let backwards = try evaluate(
                    ["Forms/event.json"],
                    input: #"{"title":"x","starts":"2026-10-25T02:30:00+01:00","ends":"2026-10-25T02:45:00+02:00"}"#)
                #expect(backwards.status == 1)
                #expect(backwards.output.contains(#""code":"predicate""#))
                #expect(backwards.output.contains(#""ends":"2026-10-25T02:45:00+02:00""#))
            }
        }

        @Test func invalidSubmissionExits1WithTheErrors() async throws {
            try await offPool {
                let result = try evaluate(["Forms/event.json", "--locale", "zh-Hans"], input: "{}")
                #expect(result.status == 1)
                #expect(result.output.contains(#""valid":false"#))
                #expect(result.output.contains("Title不能为空"))
            }
        }

        @Test func aStoredRecordIsEditedAsTheServerWouldEditIt() async throws {
            try await offPool {
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fw-record-\(UUID())")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: folder) }
                let ada = folder.appendingPathComponent("ada.json").path
                let gold = folder.appendingPathComponent("gold.json").path
                try Data(#"{"member-since":"2024-05-12","username":"ada","email":"ada@example.com"}"#.utf8)
                    .write(to: URL(fileURLWithPath: ada))
                try Data(#"{"plan":"gold"}"#.utf8).write(to: URL(fileURLWithPath: gold))
                // The user name is disabled for a saved account: the record's stays, the posted one is ignored.
                let edited = try evaluate(["Forms/account.yaml", "--record", ada], input: #"{"username":"eve"}"#)
                #expect(edited.status == 0)
                #expect(edited.output.contains(#""username":"ada""#))
                #expect(edited.output.contains(#""email":"ada@example.com""#))
                let unfit = try evaluate(["Forms/account.yaml", "--record", gold], input: "{}")
                #expect(unfit.status == 2)
                #expect(unfit.errors.contains("the stored value of 'plan' does not fit the form"))
                let missing = try evaluate(["Forms/account.yaml", "--record", folder.path + "/none.json"], input: "{}")
                #expect(missing.status == 2)
                #expect(missing.errors.contains("cannot be read"))
            }
        }

        @Test func unreadableInputOrFormExits2WithAMessage() async throws {
            try await offPool {
                let badInput = try evaluate(["Forms/event.json"], input: "[1,2]")
                #expect(badInput.status == 2)
                #expect(badInput.errors.contains("a JSON submission must be an object"))
                let badForm = try evaluate(["Forms/nope.json"], input: "{}")
                #expect(badForm.status == 2)
                #expect(badForm.errors.contains("Forms/nope.json"))
            }
        }
    }
}
