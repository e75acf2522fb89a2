import FormEngine
import Foundation
import HTTPTestClient
import Testing

@testable import FormServer

/// Over loopback: a post whose values are too long for the form's patterns is refused with
/// `tooLongToCheck`, judged off the server's threads, while other requests go on being answered. (The
/// figures, 1 MB values and eight clients at once, are bench/costly.sh's.)
@Suite struct CostlyCheckingTests {
    /// A tenth of the server's budget: the same paths, at a tenth of the time a debug build takes to spend it.
    static let budget = FormEngine.submissionBudget / 10

    /// A folder with one form, `costly`: `name` has the costliest kind of pattern a form may have, `note`
    /// is hidden by a MATCHES over `name`.
    static func forms() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fw-costly-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let descriptor = #"""
            id: costly
            title: Costly
            sections:
              - rows:
                  - { tag: name, type: text, title: Name, validators: [{ kind: regex, pattern: '^(\w+\s?){1,250}$' }] }
                  - { tag: note, type: text, title: Note, hidden: "$name MATCHES '((((a*)*)*)*){20}b'" }
            """#
        try descriptor.write(to: folder.appendingPathComponent("costly.yaml"), atomically: true, encoding: .utf8)
        return folder.path
    }

    @Test func aLongValueIsRefusedAsTooLongToCheckInJSONAndOnThePage() async throws {
        let folder = try Self.forms()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await withFormApp(forms: folder, checkingBudget: Self.budget) { _, port in
            let long = String(repeating: "a", count: 200_000)
            let json = try postJSON(port, "costly", #"{"name": ""# + long + #""}"#)
            #expect(json.status == 422)
            #expect(json.text.contains(#""code":"tooLongToCheck""#))
            #expect(!json.text.contains(#""code":"regex""#))
            let session = try BrowserSession(port: port, form: "costly")
            let page = try session.post("costly", [("name", String(repeating: "a", count: 100_000))])
            #expect(page.status == 422)
            #expect(page.text.contains("Some answers are too long to be checked"))
            // What was typed is kept for the reader to shorten.
            #expect(page.text.contains(String(repeating: "a", count: 1_000)))
        }
    }

    @Test func aValueBeyondTheInlineBudgetButWithinTheWholeIsJudgedAsUsual() async throws {
        let folder = try Self.forms()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await withFormApp(forms: folder, checkingBudget: Self.budget) { _, port in
            // One word of 400 letters keeps every copy of the group alive: about 700,000 steps, more than a
            // server thread spends (`FormRoutes.inlineBudget`), less than a post may.
            let words = String(repeating: "a", count: 400)
            #expect(Self.budget / 32 < 700_000 && 700_000 < Self.budget)
            let valid = try postJSON(port, "costly", #"{"name": ""# + words + #""}"#)
            #expect(valid.status == 200)
            #expect(valid.text.contains(#""name":"aaaa"#))
            let invalid = try postJSON(port, "costly", #"{"name": ""# + words + #" !"}"#)
            #expect(invalid.status == 422)
            #expect(invalid.text.contains(#""code":"regex""#))
        }
    }

    @Test func healthIsAnsweredWhileCostlyPostsAreBeingJudged() async throws {
        let folder = try Self.forms()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await withFormApp(forms: folder, checkingBudget: Self.budget) { _, port in
            let body = #"{"name": ""# + String(repeating: "a", count: 100_000) + #""}"#
            let statuses = Statuses()
            let group = DispatchGroup()
            for _ in 0..<4 {
                DispatchQueue.global().async(group: group) {
                    statuses.append((try? postJSON(port, "costly", body).status) ?? 0)
                }
            }
            for _ in 0..<5 {
                let health = try request(port, "/healthz")
                #expect(health.status == 200)
            }
            #expect(group.wait(timeout: .now() + 60) == .success)
            #expect(statuses.all == Array(repeating: 422, count: 4))
        }
    }
}

/// The statuses that concurrent posts got.
private final class Statuses: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int] = []

    func append(_ status: Int) { lock.withLock { values.append(status) } }
    var all: [Int] { lock.withLock { values } }
}
