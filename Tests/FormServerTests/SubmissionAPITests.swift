import FormStore
import Foundation
import HTTPTestClient
import Testing

@testable import FormServer

/// `/api/forms/{id}/submissions…` on a real SQLite store: keys, scopes, paging, one submission, its
/// files, erasure and streamed exports. (The same routes on PostgreSQL: `PostgresStoreTests`.)
@Suite struct SubmissionAPITests {
    private static let event = #"{"title":"Lunch","starts":"2026-11-23T12:00","ends":"2026-11-23T13:00"}"#

    /// A new store in a temporary folder, with keys of every kind made as `formwright keys create`
    /// makes them; `body` gets the server's port, the store and the keys by name.
    private func withAPI<T: Sendable>(
        _ body: @escaping @Sendable (Int, any SubmissionDatabase, [String: String]) throws -> T
    ) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fw-api-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/formwright.db"
        let store = try StoreLocation.open("sqlite:\(path)")
        var keys: [String: String] = [:]
        let kinds: [(String, [String], [String])] = [
            ("reader", ["read"], []), ("exporter", ["export"], []), ("eraser", ["delete", "read"], []),
            ("pets-only", ["read"], ["pets"]), ("revoked", ["read", "export", "delete"], []),
            ("poster", ["submit"], ["others"]),
        ]
        for (name, scopes, forms) in kinds {
            let key = APIKey.make()
            keys[name] = key
            _ = try store.add(
                StoredKey(name: name, hash: APIKey.hash(key), scopes: scopes, forms: forms, created: "2026-11-28"))
        }
        _ = try store.revokeKey(named: "revoked")
        let made = keys
        return try await withFormServer(store: "sqlite:\(path)") { port in try body(port, store, made) }
    }

    private func get(_ port: Int, _ target: String, key: String?) throws -> TestResponse {
        try request(port, "GET", target, headers: key.map { ["Authorization": "Bearer \($0)"] } ?? [:])
    }

    private func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any])
    }

    /// No key, a wrong one, a revoked one: `401` with the challenge; a key short of the scope or the form:
    /// `403`; never a submission.
    @Test func keysAreCheckedBeforeAnything() async throws {
        try await withAPI { port, _, keys in
            let kept = try postJSON(port, "event", Self.event)
            #expect(kept.status == 200)
            let id = try #require(try json(kept)["id"] as? String)
            #expect(kept.header("Location") == "/api/forms/event/submissions/\(id)")
            let list = "/api/forms/event/submissions"

            let none = try get(port, list, key: nil)
            #expect(none.status == 401)
            #expect(none.header("WWW-Authenticate") == #"Bearer realm="formwright""#)
            #expect(none.text.contains(#""code":"unauthorized""#))
            for wrong in ["fwk_" + String(repeating: "0", count: 64), "nonsense", keys["revoked"]!] {
                let answer = try get(port, list, key: wrong)
                #expect(answer.status == 401, "\(wrong)")
                #expect(answer.header("WWW-Authenticate")?.contains(#"error="invalid_token""#) == true)
                #expect(!answer.text.contains(id))
            }
            // Another scheme is no Bearer credentials: the bare challenge (RFC 6750 §3.1).
            let basic = try request(port, "GET", list, headers: ["Authorization": "Basic \(keys["reader"]!)"])
            #expect(basic.status == 401)
            #expect(basic.header("WWW-Authenticate") == #"Bearer realm="formwright""#)

            let exporter = try get(port, list, key: keys["exporter"])
            #expect(exporter.status == 403)
            #expect(exporter.header("WWW-Authenticate")?.contains(#"scope="read""#) == true)
            #expect(!exporter.text.contains(id))
            let petsOnly = try get(port, list, key: keys["pets-only"])
            #expect(petsOnly.status == 403)
            #expect(petsOnly.text.contains("is not for the form 'event'"))
            #expect(petsOnly.header("WWW-Authenticate") == #"Bearer realm="formwright", error="insufficient_scope""#)
            let reader = try request(
                port, "DELETE", "\(list)/\(id)", headers: ["Authorization": "Bearer \(keys["reader"]!)"])
            #expect(reader.status == 403)
            #expect(try get(port, list, key: keys["reader"]).text.contains(id))
        }
    }

    /// Pages of `limit`, newest first, each naming the next (in `next` and a `Link`) until the last;
    /// `since` and `until` bound them by time; a tampered cursor or a wrong parameter is a `400`.
    @Test func listingsPageNewestFirst() async throws {
        try await withAPI { port, _, keys in
            var ids: [String] = []
            for _ in 0..<5 {
                let answer = try postJSON(port, "event", Self.event)
                ids.append(try #require(try json(answer)["id"] as? String))
                usleep(2_000)  // ids a few milliseconds apart, for the time bounds below
            }
            var seen: [String] = []
            var target: String? = "/api/forms/event/submissions?limit=2"
            var pages = 0
            while let next = target, pages < 10 {
                let answer = try get(port, next, key: keys["reader"])
                #expect(answer.status == 200)
                let page = try json(answer)
                let items = try #require(page["submissions"] as? [[String: Any]])
                seen += items.compactMap { $0["id"] as? String }
                #expect(items.allSatisfy { ($0["httpParameters"] as? [String: Any])?["title"] as? String == "Lunch" })
                target = page["next"] as? String
                #expect((target == nil) == (answer.header("Link") == nil))
                pages += 1
            }
            #expect(seen == ids.reversed())
            #expect(pages == 3)

            let third = try #require(SubmissionID(ids[2]))
            let fourth = try #require(SubmissionID(ids[3]))
            let since = Self.instant(third.milliseconds)
            let until = Self.instant(fourth.milliseconds)
            let window = try json(
                try get(port, "/api/forms/event/submissions?since=\(since)&until=\(until)", key: keys["reader"]))
            #expect((window["submissions"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [ids[2]])

            for (query, message) in [
                ("cursor=../../pets", "cursor '../../pets' is not one this API gave"),
                ("limit=0", "limit must be a whole number from 1 to 1000"),
                ("limit=abc", "limit must be"), ("since=yesterday", "since must be an instant"),
                ("limt=5", "unknown parameter 'limt'"),
            ] {
                let answer = try get(port, "/api/forms/event/submissions?\(query)", key: keys["reader"])
                #expect(answer.status == 400, "\(query)")
                #expect(answer.text.contains(message), "\(query): \(answer.text)")
            }
            #expect(try get(port, "/api/forms/nothing/submissions", key: keys["reader"]).status == 404)
        }
    }

    private static func instant(_ milliseconds: UInt64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    /// One submission with its files listed; a file as an attachment that is not sniffed; erasure is a
    /// `204` and then the submission is gone. An id of another form is not found in this one.
    @Test func oneSubmissionItsFilesAndItsErasure() async throws {
        try await withAPI { port, store, keys in
            let photo = pngSignature + Array("PNGDATA".utf8)
            #expect(
                try BrowserSession(port: port, form: "others").postPhoto(filename: "cat é.png", bytes: photo).status
                    == 200)
            let id = try #require(try store.submissions(formID: "others", limit: 1).first?.id.description)
            let event = try #require(try json(try postJSON(port, "event", Self.event))["id"] as? String)
            let base = "/api/forms/others/submissions/\(id)"

            let one = try get(port, base, key: keys["reader"])
            #expect(one.status == 200)
            let item = try json(one)
            let files = try #require(item["files"] as? [[String: Any]])
            #expect(files.count == 1)
            #expect(files.first?["filename"] as? String == "cat é.png")
            #expect(files.first?["size"] as? Int == photo.count)
            let url = try #require(files.first?["url"] as? String)
            #expect(url == "\(base)/files/photo")

            let file = try get(port, url, key: keys["reader"])
            #expect(file.status == 200)
            #expect(file.body == photo)
            #expect(file.header("Content-Type") == "image/png")
            #expect(file.header("X-Content-Type-Options") == "nosniff")
            #expect(
                file.header("Content-Disposition")
                    == #"attachment; filename="cat _.png"; filename*=UTF-8''cat%20%C3%A9.png"#)
            #expect(try get(port, "\(base)/files/nothing", key: keys["reader"]).status == 404)

            // The event's id under the other form's path: not there, and nothing of it shown.
            let crossed = try get(port, "/api/forms/others/submissions/\(event)", key: keys["reader"])
            #expect(crossed.status == 404)
            #expect(!crossed.text.contains("Lunch"))
            #expect(try get(port, "/api/forms/others/submissions/not-an-id", key: keys["reader"]).status == 404)

            let erase = { (target: String) in
                try request(port, "DELETE", target, headers: ["Authorization": "Bearer \(keys["eraser"]!)"])
            }
            #expect(try erase("/api/forms/others/submissions/\(event)").status == 404)
            #expect(try erase(base).status == 204)
            #expect(try erase(base).status == 404)
            #expect(try get(port, base, key: keys["reader"]).status == 404)
            #expect(try get(port, url, key: keys["reader"]).status == 404)
            #expect(try store.submission(formID: "event", id: #require(SubmissionID(event))) != nil)
        }
    }

    /// Exports stream every submission, oldest first: JSON lines as `submissions export` writes them,
    /// CSV with the form's columns.
    @Test func exportsStreamEverySubmission() async throws {
        try await withAPI { port, _, keys in
            var ids: [String] = []
            for _ in 0..<300 {
                ids.append(try #require(try json(try postJSON(port, "event", Self.event))["id"] as? String))
            }
            let lines = try get(port, "/api/forms/event/submissions.jsonl", key: keys["exporter"])
            #expect(lines.status == 200)
            #expect(lines.header("Transfer-Encoding") == "chunked")
            #expect(lines.header("Content-Type") == "application/jsonl; charset=utf-8")
            let rows = lines.text.split(separator: "\n")
            #expect(rows.count == 300)
            #expect(rows.compactMap { $0.firstMatch(of: /"id":"([0-9A-Z]{26})"/).map { String($0.1) } } == ids)

            let csv = try get(port, "/api/forms/event/submissions.csv", key: keys["exporter"])
            #expect(csv.status == 200)
            #expect(
                csv.header("Content-Disposition") == #"attachment; filename="event.csv"; filename*=UTF-8''event.csv"#)
            let table = csv.text.split(separator: "\r\n")
            #expect(table.count == 301)
            #expect(table.first?.hasPrefix("id,received,") == true)
            #expect(table.dropFirst().first?.hasPrefix(ids[0] + ",") == true)
            #expect(try get(port, "/api/forms/event/submissions.csv", key: keys["reader"]).status == 403)
        }
    }

    /// A multipart post with no page behind it: a key of scope `submit` stands in for the CSRF token; a
    /// key without it, or a wrong one, is refused before the post is judged, and a proxy's Basic
    /// credentials leave the token to be checked.
    @Test func aKeyOfScopeSubmitStandsInForTheToken() async throws {
        try await withAPI { port, store, keys in
            let boundary = "----fw"
            var body = ""
            for (name, value) in [("count", "2"), ("volume", "40")] {
                body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
            }
            body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"cat.png\"\r\n"
            body += "Content-Type: image/png\r\n\r\n"
            let bytes = Array(body.utf8) + pngSignature + Array("PNG\r\n--\(boundary)--\r\n".utf8)
            let post = { (authorization: String?) in
                var headers = [
                    "Content-Type": "multipart/form-data; boundary=\(boundary)", "Accept": "application/json",
                ]
                headers["Authorization"] = authorization
                return try request(port, "POST", "/forms/others", headers: headers, bytes: bytes)
            }
            let kept = try post("Bearer \(keys["poster"]!)")
            #expect(kept.status == 200, "\(kept.text)")
            #expect(try store.submissions(formID: "others", limit: 10).count == 1)
            #expect(try post("Bearer \(keys["reader"]!)").status == 403)
            #expect(try post("Bearer fwk_" + String(repeating: "1", count: 64)).status == 401)
            // A proxy's credentials are no key: the token is checked, and there is none.
            for credentials in ["Basic YWRhOmxvdmVsYWNl", "Bearer eyJhbGciOiJub25lIn0.e30."] {
                let answer = try post(credentials)
                #expect(answer.status == 403)
                #expect(answer.text.contains(#""code":"csrf""#))
            }
            #expect(try post(nil).status == 403)
            #expect(try store.submissions(formID: "others", limit: 10).count == 1)
        }
    }

    /// A server without a database has no API: `404` saying why.
    @Test func aServerWithoutADatabaseSaysSo() async throws {
        let answer = try await withFormServer(store: "none") { port in
            try request(port, "GET", "/api/forms/event/submissions", headers: ["Authorization": "Bearer fwk_x"])
        }
        #expect(answer.status == 404)
        #expect(answer.text.contains("keeps no submissions in a database"))
    }
}
