import FormStore
import Foundation
import HTTPTestClient
import TestProcesses
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension CommandSuites {
    /// `formwright import DIR`: a folder `serve --submissions` wrote, loaded into a store, once.
    @Suite struct ImportCommandTests {
        @Test func aFolderOfJSONLinesIsImportedOnce() async throws {
            try await offPool {
                let folder = try temporaryFolder()
                defer { try? FileManager.default.removeItem(at: folder) }
                let lines = folder.appendingPathComponent("lines")
                let server = try FormwrightProcess(["serve", "--port", "0", "--submissions", lines.path])
                let port = try #require(server.listeningPort(), "\(server.text)")
                let event = #"{"title":"Lunch","starts":"2026-11-23T12:00","ends":"2026-11-23T13:00"}"#
                for _ in 0..<2 {
                    let answer = try exchange(
                        port: port,
                        "POST /forms/event HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                            + "Content-Length: \(event.utf8.count)\r\nConnection: close\r\n\r\n\(event)")
                    #expect(answer.hasPrefix("HTTP/1.1 200"))
                }
                server.signal(SIGTERM)
                #expect(server.waitForExit() == 0)
                // A line as folders written before passwords were left out held them, with a file; the same
                // line again; and a line that is no submission.
                try FileManager.default.createDirectory(
                    at: lines.appendingPathComponent("validations"), withIntermediateDirectories: true)
                try Data("%PDF-1.7".utf8).write(to: lines.appendingPathComponent("validations/cv.pdf"))
                let old =
                    #"{"received":"2026-11-01T08:00:00.000Z","form":"validations","httpParameters":{"username":"ada_l","password":"correct horse"},"formValues":{"username":{"value":"ada_l"},"password":{"value":"correct horse"}},"files":[{"tag":"cv","filename":"cv.pdf","contentType":"application/pdf","size":8,"stored":"validations/cv.pdf"}]}"#
                try Data((old + "\n" + old + "\n{\"received\":\"yesterday\"}\n").utf8).write(
                    to: lines.appendingPathComponent("validations.jsonl"))

                let path = folder.appendingPathComponent("formwright.db").path
                _ = try SQLiteSubmissionStore(path: path)
                let first = try runFormwright(["import", lines.path, "--store", "sqlite:\(path)"], input: "")
                #expect(first.status == 1)
                #expect(first.output.contains("imported 3, already there 1, not readable 1"), "\(first.output)")
                #expect(first.errors.contains("validations.jsonl:3: no \"received\" time"), "\(first.errors)")
                let again = try runFormwright(["import", lines.path, "--store", "sqlite:\(path)"], input: "")
                #expect(again.output.contains("imported 0, already there 4"), "\(again.output)")

                let store = try SQLiteSubmissionStore(path: path)
                #expect(try store.submissions(formID: "event", limit: 10).count == 2)
                let imported = try #require(try store.submissions(formID: "validations", limit: 10).first)
                #expect(imported.received == "2026-11-01T08:00:00.000Z")
                #expect(imported.httpParameters == #"{"username":"ada_l"}"#)
                #expect(!imported.formValues.contains("correct horse"))
                let files = try store.submission(formID: "validations", id: imported.id)?.files
                #expect(files?.map(\.bytes) == [Array("%PDF-1.7".utf8)])
                #expect(imported.id.milliseconds == 1_793_520_000_000)  // 2026-11-01T08:00:00Z
            }
        }
    }
}
