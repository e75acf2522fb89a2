import Foundation
import HTTPTestClient
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension CommandSuites {
    /// `formwright submissions list|export|delete` on a store `serve --store` filled.
    @Suite struct SubmissionsCommandTests {
        /// Posts `json` to form `form` of the server on `port`; the id its answer names.
        private static func post(_ port: Int, _ form: String, _ json: String) throws -> String {
            let answer = try exchange(
                port: port,
                "POST /forms/\(form) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(json.utf8.count)\r\nConnection: close\r\n\r\n\(json)")
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(300))")
            return String(try #require(answer.firstMatch(of: /\{"id":"([0-9A-Z]{26})"/)).1)
        }

        @Test func submissionsAreListedExportedAndErased() async throws {
            try await offPool {
                let folder = try temporaryFolder()
                defer { try? FileManager.default.removeItem(at: folder) }
                let store = "sqlite:" + folder.appendingPathComponent("formwright.db").path
                let server = try FormwrightProcess(["serve", "--port", "0", "--store", store])
                let port = try #require(server.listeningPort(), "\(server.text)")
                let first = try Self.post(
                    port, "event",
                    #"{"title":"=HYPERLINK(\"x\")","starts":"2026-11-23T12:00","ends":"2026-11-23T13:00"}"#)
                let second = try Self.post(
                    port, "event",
                    #"{"title":"Lunch, \"with\" friends","starts":"2026-11-24T12:00","ends":"2026-11-24T13:00","guests":8}"#
                )
                _ = try Self.post(port, "multivalued", #"{"tags":["swift","forms"]}"#)
                server.signal(SIGTERM)
                #expect(server.waitForExit() == 0)

                let list = try runFormwright(["submissions", "list", "--store", store, "--form", "event"])
                #expect(list.status == 0)
                #expect(
                    list.output.split(separator: "\n").map { $0.split(separator: " ")[0] } == [
                        Substring(second), Substring(first),
                    ])

                let csv = try runFormwright([
                    "submissions", "export", "--store", store, "--form", "event", "--format", "csv",
                ])
                #expect(csv.status == 0)
                let lines = csv.output.components(separatedBy: "\r\n")
                #expect(lines[0].hasPrefix("id,received,Title,Location,All-day,Starts,Ends,Repeat,Alert,Second Alert,"))
                // A formula is neutralised, and quotes and commas are quoted.
                #expect(lines[1].hasPrefix("\(first),"))
                #expect(lines[1].contains(#","'=HYPERLINK(""x"")","#))
                #expect(lines[2].contains(#","Lunch, ""with"" friends","#))
                #expect(lines[2].contains(",8,"))

                let tags = try runFormwright(
                    ["submissions", "export", "--store", store, "--form", "multivalued", "--format", "csv"])
                let tagLines = tags.output.components(separatedBy: "\r\n")
                #expect(tagLines[0].hasPrefix("id,received,Tag 1,Tag 2,Tag 3,"))
                #expect(tagLines[1].contains(",swift,forms,,"))

                let jsonl = try runFormwright(["submissions", "export", "--store", store, "--form", "event"])
                let records = try jsonl.output.split(separator: "\n").map { line in
                    try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                }
                #expect(records.map { $0["id"] as? String } == [first, second])
                #expect((records[1]["httpParameters"] as? [String: Any])?["guests"] as? Int == 8)

                let erased = try runFormwright(["submissions", "delete", "--store", store, "--form", "event", first])
                #expect(erased.status == 0)
                #expect(erased.output.contains("erased \(first)"))
                let again = try runFormwright(["submissions", "delete", "--store", store, "--form", "event", first])
                #expect(again.status == 1)
                #expect(again.output.contains("no submission \(first) of form 'event'"))
                let left = try runFormwright(["submissions", "list", "--store", store, "--form", "event"])
                #expect(left.output.split(separator: "\n").count == 1)
                let missing = folder.appendingPathComponent("typo.db").path
                let typo = try runFormwright(["submissions", "list", "--store", "sqlite:\(missing)", "--form", "event"])
                #expect(typo.status == 2)
                #expect(typo.output.contains("no store at \(missing)"))
                #expect(!FileManager.default.fileExists(atPath: missing))
                let noStore = try runFormwright(["submissions", "list", "--store", "mysql://x", "--form", "event"])
                #expect(noStore.status == 2)
                #expect(noStore.output.contains("names no store"))
            }
        }
    }
}
