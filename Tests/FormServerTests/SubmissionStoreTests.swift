import FormEngine
import FormModel
import Foundation
import HTTPTestClient
import Synchronization
import Testing

@testable import FormServer

/// `serve --submissions DIR`: valid submissions of forms without a handler kept as JSON lines, their
/// uploads beside them, and nothing lost when the disk refuses.
@Suite struct SubmissionStoreTests {
    /// A fresh folder under the system's temporary one, removed after `body`.
    private func withFolder<T>(_ body: (String) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fw-store-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        return try await body(folder)
    }

    /// The lines of `<folder>/<form>.jsonl`, each parsed as a JSON object.
    private func lines(_ folder: String, _ form: String) throws -> [[String: Any]] {
        let text = try String(contentsOfFile: "\(folder)/\(form).jsonl", encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        return try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    /// `eventually`, awaiting between looks: this test runs on the cooperative pool, which the
    /// store's own tasks need too, so it must not block a thread of it.
    private func waitUntil(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<500 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    private static let validEvent =
        #"{"title":"Team lunch","starts":"2026-11-23T12:00","ends":"2026-11-23T13:00","alert":"never","guests":8}"#

    @Test func validSubmissionsAreKeptAsALinePerSubmissionAndInvalidOnesAreNot() async throws {
        try await withFolder { folder in
            let statuses = try await withFormServer(submissions: folder) { port in
                let api = try postJSON(port, "event", Self.validEvent)
                let invalid = try postJSON(port, "event", #"{"title":""}"#)
                let browser = try BrowserSession(port: port, form: "pets").post(
                    "pets", [("has_pets", "on"), ("pet_names", "Rex, Tom")])
                return [api.status, invalid.status, browser.status]
            }
            #expect(statuses == [200, 422, 303])
            let events = try lines(folder, "event")
            #expect(events.count == 1)
            let event = try #require(events.first)
            #expect(event["form"] as? String == "event")
            let received = try #require(event["received"] as? String)
            #expect(received.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "\(received)")
            let parameters = try #require(event["httpParameters"] as? [String: Any])
            #expect(parameters["title"] as? String == "Team lunch")
            #expect(parameters["guests"] as? Int == 8)
            #expect(event["formValues"] is [String: Any])
            #expect(event["files"] == nil)
            let pets = try lines(folder, "pets")
            #expect(pets.count == 1)
            let petParameters = try #require(pets.first?["httpParameters"] as? [String: Any])
            #expect(petParameters["has_pets"] as? Bool == true)
            #expect(petParameters["pet_names"] as? String == "Rex, Tom")
        }
    }

    /// An upload's bytes are kept under a name the server chose, inside the form's folder, whatever
    /// name the browser gave.
    @Test func anUploadIsKeptUnderARandomNameInsideTheFolder() async throws {
        try await withFolder { folder in
            let status = try await withFormServer(submissions: folder) { port in
                let session = try BrowserSession(port: port, form: "others")
                return try session.postPhoto(
                    filename: #"..\\..\\etc\\passwd.PNG"#, bytes: pngSignature + Array("PNGDATA".utf8)
                ).status
            }
            #expect(status == 200)
            let line = try #require(try lines(folder, "others").first)
            let files = try #require(line["files"] as? [[String: Any]])
            #expect(files.count == 1)
            let file = try #require(files.first)
            #expect(file["tag"] as? String == "photo")
            #expect(file["filename"] as? String == "passwd.PNG")
            #expect(file["contentType"] as? String == "image/png")
            #expect(file["size"] as? Int == 15)
            let stored = try #require(file["stored"] as? String)
            #expect(stored.wholeMatch(of: /others\/\d{8}T\d{9}Z-[0-9a-f]{16}\.png/) != nil, "\(stored)")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(stored)"))
            #expect(Array(bytes) == pngSignature + Array("PNGDATA".utf8))
            #expect(try FileManager.default.contentsOfDirectory(atPath: "\(folder)/others").count == 1)
        }
    }

    /// A write that fails loses nothing: `503`, the values on the page again (or a JSON error), and no
    /// file of the submission left behind.
    @Test func aSubmissionThatCannotBeKeptIsAnswered503WithTheValuesKept() async throws {
        try await withFolder { folder in
            let answers = try await withFormServer(submissions: folder) { port in
                // A folder where the form's file should be: opening it for writing fails.
                try FileManager.default.createDirectory(
                    atPath: "\(folder)/event.jsonl", withIntermediateDirectories: true)
                let api = try postJSON(port, "event", Self.validEvent)
                let session = try BrowserSession(port: port, form: "event")
                let page = try session.post(
                    "event",
                    [
                        ("title", "Team lunch"), ("starts", "2026-11-23T12:00"), ("ends", "2026-11-23T13:00"),
                        ("alert", "never"),
                    ])
                return [api, page]
            }
            let (api, page) = (answers[0], answers[1])
            #expect(api.status == 503)
            #expect(api.header("Retry-After") == "10")
            #expect(api.text.contains(#""code":"notKept""#))
            #expect(page.status == 503)
            #expect(page.header("Retry-After") == "10")
            #expect(page.text.contains("could not be saved just now. What you typed is still below (any file"))
            #expect(page.text.contains(#"value="Team lunch""#))
            #expect(try FileManager.default.contentsOfDirectory(atPath: "\(folder)/event.jsonl").isEmpty)
        }
    }

    /// Lines of concurrent posts never interleave: each is one write on a file opened for appending.
    @Test func concurrentSubmissionsEachKeepAWholeLine() async throws {
        try await withFolder { folder in
            let statuses = try await withFormServer(submissions: folder) { port in
                let results = Mutex<[Int]>([])
                DispatchQueue.concurrentPerform(iterations: 24) { index in
                    let title = String(repeating: "\(index % 10)", count: 90)
                    let body = Self.validEvent.replacingOccurrences(of: "Team lunch", with: title)
                    let status = (try? postJSON(port, "event", body).status) ?? 0
                    results.withLock { $0.append(status) }
                }
                return results.withLock { $0 }
            }
            #expect(statuses.count == 24 && statuses.allSatisfy { $0 == 200 }, "\(statuses)")
            let kept = try lines(folder, "event")
            #expect(kept.count == 24)
            let titles = kept.compactMap { ($0["httpParameters"] as? [String: Any])?["title"] as? String }
            #expect(titles.count == 24)
            #expect(titles.allSatisfy { Set($0).count == 1 && $0.count == 90 })
        }
    }

    /// A line an earlier failure or a crash cut short is cut off before the next one is written: the
    /// file holds whole lines only, and the next submission is one of them.
    @Test func aLineCutShortIsCutOffBeforeTheNextIsWritten() async throws {
        try await withFolder { folder in
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let earlier = #"{"received":"2026-11-22T20:00:00.000Z","form":"event"}"# + "\n"
            try Data((earlier + #"{"received":"2026-11-22T20:01:00.000Z","form":"ev"#).utf8)
                .write(to: URL(fileURLWithPath: "\(folder)/event.jsonl"))
            let status = try await withFormServer(submissions: folder) { port in
                try postJSON(port, "event", Self.validEvent).status
            }
            #expect(status == 200)
            let kept = try lines(folder, "event")
            #expect(kept.count == 2)
            #expect(kept.first?["received"] as? String == "2026-11-22T20:00:00.000Z")
            #expect((kept.last?["httpParameters"] as? [String: Any])?["title"] as? String == "Team lunch")
        }
    }

    /// A last record that is whole but for its newline (a hand edit) is kept: the newline is added.
    @Test func aWholeLastRecordWithoutItsNewlineIsKept() async throws {
        try await withFolder { folder in
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let records =
                #"{"received":"2026-11-22T20:00:00.000Z","form":"event"}"# + "\n"
                + #"{"received":"2026-11-22T20:01:00.000Z","form":"event"}"#
            try Data(records.utf8).write(to: URL(fileURLWithPath: "\(folder)/event.jsonl"))
            let status = try await withFormServer(submissions: folder) { port in
                try postJSON(port, "event", Self.validEvent).status
            }
            #expect(status == 200)
            let kept = try lines(folder, "event")
            #expect(
                kept.map { $0["received"] as? String }.prefix(2) == [
                    "2026-11-22T20:00:00.000Z", "2026-11-22T20:01:00.000Z",
                ])
            #expect(kept.count == 3)
        }
    }

    /// A form's file that is not a regular file is refused at once, never waited on: a pipe with no
    /// reader would otherwise hold every submission behind it.
    @Test func aPipeInPlaceOfAFormsFileIsRefusedAtOnce() async throws {
        try await withFolder { folder in
            let status = try await withFormServer(submissions: folder) { port in
                #expect(mkfifo("\(folder)/event.jsonl", 0o600) == 0)
                return try postJSON(port, "event", Self.validEvent).status
            }
            #expect(status == 503)
        }
    }

    /// At start, a form's file that cannot be appended to stops the server, naming it.
    @Test func aFormsFileThatCannotBeAppendedToStopsTheServerAtStart() async throws {
        try await withFolder { folder in
            try FileManager.default.createDirectory(
                atPath: "\(folder)/event.jsonl", withIntermediateDirectories: true)
            await #expect {
                try await withFormServer(submissions: folder) { _ in }
            } throws: { error in
                "\(error)".contains("cannot keep submissions") && "\(error)".contains("event.jsonl")
            }
        }
    }

    @Test func aFolderThatCannotBeMadeStopsTheServerAtStart() async throws {
        try await withFolder { folder in
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: "\(folder)/file", contents: Data("x".utf8)))
            await #expect {
                try await withFormServer(submissions: "\(folder)/file/submissions") { _ in }
            } throws: { error in
                "\(error)".contains("cannot keep submissions") && "\(error)".contains("\(folder)/file/submissions")
            }
        }
    }

    /// A disk that does not take a write in time gets its submission answered as not kept at the
    /// deadline (the write may land later), and past the backlog a submission is refused at once.
    @Test func aSlowDiskMeetsTheDeadlineAndTheBacklog() async throws {
        try await withFolder { folder in
            let forms = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Forms").path
            let form = try #require(try FormCatalog(folder: forms).forms["pets"])
            var fields = SubmittedFields()
            fields.isJSON = true
            let verdict = FormEngine(form: form).evaluate(fields)
            #expect(verdict.isValid)
            let store = try SubmissionStore(folder: folder, deadline: .milliseconds(300), backlog: 1)
            let release = DispatchSemaphore(value: 0)
            store.queue.async { release.wait() }  // the disk, stuck
            async let first: Void = store.keep(verdict, formID: "pets")
            // The first waits on the stuck queue; a second is past the backlog of one.
            #expect(await waitUntil { store.waitingCount == 1 })
            // Moving again by itself in 3 s: without a deadline the test would wait, not hang.
            DispatchQueue.global().asyncAfter(deadline: .now() + 3) { release.signal() }
            await #expect(throws: SubmissionStoreError.self) { try await store.keep(verdict, formID: "pets") }
            let began = ContinuousClock.now
            do {
                try await first
                Issue.record("a write held up past its deadline was answered as kept")
            } catch {
                #expect("\(error)".contains("did not take the submission within"))
            }
            #expect(ContinuousClock.now - began < .seconds(2), "answered only when the disk moved again")
            release.signal()
            // The write itself still lands once the disk moves again.
            let landed = await waitUntil {
                (try? String(contentsOfFile: "\(folder)/pets.jsonl", encoding: .utf8))?.count ?? 0 > 0
            }
            #expect(landed)
        }
    }

    /// A kept file's extension comes from what its bytes are when they are a well-known format, else from
    /// the browser's name only when that names an inert kind of file: never one a browser renders or a
    /// shell runs, whatever the name says.
    @Test func aKeptFilesExtensionNeverMakesItRunnable() {
        func named(_ filename: String, _ bytes: [UInt8] = Array("data".utf8)) -> String {
            SubmissionStore.Files.fileExtension(
                of: UploadedFile(filename: filename, contentType: "application/octet-stream", bytes: bytes))
        }
        #expect(named("cat.PNG") == ".png")
        #expect(named("archive.tar.gz") == ".gz")
        #expect(named("report.PDF") == ".pdf")
        #expect(named(".bashrc") == "")
        #expect(named("notes") == "")
        #expect(named("x.<script>") == "")
        #expect(named("x.pñg") == "")
        for active in ["page.html", "page.htm", "logo.svg", "run.sh", "app.js", "x.php", "setup.exe", "x.xhtml"] {
            #expect(named(active) == "", "\(active)")
        }
        // The bytes decide first: a PNG is `.png` whatever it is called, and never `.html`.
        #expect(named("evil.html", pngSignature + Array("<script>".utf8)) == ".png")
        #expect(named("photo", [0xFF, 0xD8, 0xFF, 0xE0]) == ".jpg")
    }

    @Test func timestampsAreUTCWithMilliseconds() {
        let stamp = SubmissionStore.Files.timestamp(Date(timeIntervalSince1970: 1_795_383_005.123_4))
        #expect(stamp.iso == "2026-11-22T21:30:05.123Z")
        #expect(stamp.compact == "20261122T213005123Z")
    }
}
