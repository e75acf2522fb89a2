import FormStore
import Foundation
import HTTPTestClient
import TestProcesses
import Testing

@testable import FormServer

/// `/admin` end to end over loopback, on SQLite and on PostgreSQL: no page without a session, sessions
/// that end, scopes and forms as the key allows, a token on every post, escaped values, deletion.
@Suite struct AdminRoutesTests {
    private static let event = #"{"title":"Lunch","starts":"2026-11-23T12:00","ends":"2026-11-23T13:00"}"#

    /// A fresh store of `backend` with keys by name, and a server on it; `body` gets the port and keys.
    private func withAdmin<T: Sendable>(
        _ backend: String, session: Duration? = nil,
        _ body: @escaping @Sendable (Int, [String: String]) throws -> T
    ) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fw-admin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let location =
            backend == "postgres"
            ? try PostgresCluster.shared.get().newDatabase() : "sqlite:" + folder.appendingPathComponent("f.db").path
        let store = try StoreLocation.open(location)
        var keys: [String: String] = [:]
        for (name, scopes, forms) in [
            ("ops", ["read", "export", "delete"], [String]()), ("reader", ["read"], []),
            ("pets-only", ["read"], ["pets"]), ("poster", ["submit"], []),
        ] {
            let key = APIKey.make()
            keys[name] = key
            _ = try store.add(
                StoredKey(name: name, hash: APIKey.hash(key), scopes: scopes, forms: forms, created: "2026-11-28"))
        }
        let made = keys
        return try await withFormApp(store: location, adminSession: session) { _, port in try body(port, made) }
    }

    /// The `name=value` of the `Set-Cookie` of `response` for cookie `name`, and its attributes.
    private static func cookie(_ response: TestResponse, _ name: String) -> (pair: String, attributes: String)? {
        for header in response.headers where header.name.lowercased() == "set-cookie" {
            guard header.value.hasPrefix(name + "=") else { continue }
            let parts = header.value.split(separator: ";", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
        return nil
    }

    /// The value of the hidden field `name` in `page`.
    private static func hidden(_ page: String, _ name: String) -> String? {
        let marker = #"name="\#(name)" value=""#
        guard let start = page.range(of: marker)?.upperBound else { return nil }
        return String(page[start...].prefix { $0 != "\"" })
    }

    /// Signs in with `key`; the answer, and the session's cookie when one was given.
    private static func signIn(_ port: Int, _ key: String, next: String = "/admin") throws -> (TestResponse, String?) {
        let form = try request(port, "/admin/sign-in")
        let nonce = try #require(cookie(form, "fw_admin_sign_in")?.pair)
        let token = try #require(hidden(form.text, "_csrf"))
        let next = next.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let body = "_csrf=\(token)&next=\(next)&key=\(key)"
        let answer = try request(
            port, "POST", "/admin/sign-in",
            headers: ["Cookie": nonce, "Content-Type": "application/x-www-form-urlencoded"], body: body)
        return (answer, cookie(answer, "fw_admin").map(\.pair))
    }

    private static func get(
        _ port: Int, _ target: String, _ session: String?, language: String? = nil
    ) throws
        -> TestResponse
    {
        var headers = session.map { ["Cookie": $0] } ?? [:]
        if let language { headers["Accept-Language"] = language }
        return try request(port, "GET", target, headers: headers)
    }

    private static func post(_ port: Int, _ target: String, _ session: String, token: String?) throws -> TestResponse {
        try request(
            port, "POST", target, headers: ["Cookie": session, "Content-Type": "application/x-www-form-urlencoded"],
            body: token.map { "_csrf=\($0)" } ?? "")
    }

    private static func keep(_ port: Int, title: String = "Lunch") throws -> String {
        let body = Self.event.replacingOccurrences(of: #""Lunch""#, with: JSONString(title))
        let answer = try postJSON(port, "event", body)
        #expect(answer.status == 200)
        let object = try JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any]
        return try #require(object?["id"] as? String)
    }

    private static func JSONString(_ text: String) -> String {
        let array = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: array, as: UTF8.self).dropFirst().dropLast())
    }

    @Test(arguments: ["sqlite", "postgres"])
    func noPageAnswersWithoutASession(_ backend: String) async throws {
        try await withAdmin(backend) { port, keys in
            let id = try Self.keep(port)
            for target in [
                "/admin", "/admin/forms/event?q=Lunch", "/admin/forms/event/charts", "/admin/forms/event/export.csv",
                "/admin/forms/event/submissions/\(id)", "/admin/forms/event/submissions/\(id)/delete",
            ] {
                let answer = try Self.get(port, target, nil)
                #expect(answer.status == 303, "\(target)")
                // Back to the page asked for, once signed in.
                let location = try #require(answer.header("Location"))
                let next = URLComponents(string: location)?.queryItems?.first { $0.name == "next" }?.value
                #expect(location.hasPrefix("/admin/sign-in?"), "\(target)")
                #expect(next == target)
                #expect(!answer.text.contains("Lunch"))
            }
            // A made-up session is none, and is said to have ended.
            let madeUp = try Self.get(port, "/admin", "fw_admin=" + String(repeating: "A", count: 44))
            #expect(madeUp.status == 303)
            #expect(madeUp.header("Location")?.contains("ended=1") == true)
            // A post without a session erases nothing.
            let erase = try Self.post(port, "/admin/forms/event/submissions/\(id)/delete", "x=y", token: "t")
            #expect(erase.status == 303)
            let (empty, none) = try Self.signIn(port, "")
            #expect(empty.status == 400)
            #expect(empty.text.contains("Enter an API key."))
            #expect(none == nil)
            let (_, opened) = try Self.signIn(port, keys["ops"]!)
            #expect(try Self.get(port, "/admin/forms/event/submissions/\(id)", opened).status == 200)
        }
    }

    @Test(arguments: ["sqlite", "postgres"])
    func aSessionOpensWithAReadKeyAndEndsAtSignOut(_ backend: String) async throws {
        try await withAdmin(backend) { port, keys in
            _ = try Self.keep(port)
            let (answer, opened) = try Self.signIn(port, keys["ops"]!, next: "/admin/forms/event")
            #expect(answer.status == 303)
            #expect(answer.header("Location") == "/admin/forms/event")
            let attributes = try #require(Self.cookie(answer, "fw_admin")?.attributes)
            #expect(attributes.contains("HttpOnly") && attributes.contains("SameSite=Strict"))
            #expect(attributes.contains("Path=/admin") && !attributes.contains("Secure"))
            let session = try #require(opened)
            let overview = try Self.get(port, "/admin", session)
            #expect(overview.status == 200)
            #expect(overview.text.contains("Signed in with the key ops"))
            #expect(overview.header("X-Frame-Options") == "DENY")
            #expect(overview.header("Cache-Control") == "no-store")
            let token = try #require(Self.hidden(overview.text, "_csrf"))
            // Sign-out is a change: without the page's token, or with another's, it is refused.
            #expect(try Self.post(port, "/admin/sign-out", session, token: nil).status == 403)
            #expect(try Self.post(port, "/admin/sign-out", session, token: token + "x").status == 403)
            #expect(try Self.get(port, "/admin", session).status == 200)
            let out = try Self.post(port, "/admin/sign-out", session, token: token)
            #expect(out.status == 303)
            #expect(Self.cookie(out, "fw_admin")?.attributes.contains("Max-Age=0") == true)
            // The store ended it: the old cookie opens nothing.
            #expect(try Self.get(port, "/admin", session).status == 303)
            // A next that is not a page of the view goes to the overview.
            for elsewhere in ["https://evil.example/", "//evil.example/admin", "/forms/event"] {
                let (away, _) = try Self.signIn(port, keys["reader"]!, next: elsewhere)
                #expect(away.header("Location") == "/admin", "\(elsewhere)")
            }
        }
    }

    @Test(arguments: ["sqlite", "postgres"])
    func wrongKeysKeysWithoutReadAndStaleFormsOpenNothing(_ backend: String) async throws {
        try await withAdmin(backend) { port, keys in
            let (wrong, none) = try Self.signIn(port, "fwk_" + String(repeating: "0", count: 64))
            #expect(wrong.status == 401)
            #expect(wrong.text.contains("That is not a key this server knows"))
            #expect(none == nil)
            let (poster, noSession) = try Self.signIn(port, keys["poster"]!)
            #expect(poster.status == 403)
            #expect(poster.text.contains("lacks the read scope"))
            #expect(noSession == nil)
            // A sign-in without the form's nonce cookie is a forged one.
            let forged = try request(
                port, "POST", "/admin/sign-in", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: "_csrf=abc&key=\(keys["ops"]!)")
            #expect(forged.status == 403)
            #expect(Self.cookie(forged, "fw_admin") == nil)
        }
    }

    @Test func sessionsEndAtTheirTime() async throws {
        try await withAdmin("sqlite", session: .milliseconds(1_200)) { port, keys in
            let (_, opened) = try Self.signIn(port, keys["ops"]!)
            let session = try #require(opened)
            #expect(try Self.get(port, "/admin", session).status == 200)
            usleep(1_500_000)
            let ended = try Self.get(port, "/admin/forms/event", session)
            #expect(ended.status == 303)
            #expect(ended.header("Location")?.contains("ended=1") == true)
            #expect(try Self.get(port, "/admin/sign-in?ended=1", nil).text.contains("Your session has ended"))
        }
    }

    @Test(arguments: ["sqlite", "postgres"])
    func keysSeeTheirFormsAndDoTheirScopesOnly(_ backend: String) async throws {
        try await withAdmin(backend) { port, keys in
            let id = try Self.keep(port)
            let (_, readerSession) = try Self.signIn(port, keys["reader"]!)
            let reader = try #require(readerSession)
            let page = try Self.get(port, "/admin/forms/event/submissions/\(id)", reader)
            #expect(page.status == 200)
            #expect(!page.text.contains("/delete"))
            #expect(try Self.get(port, "/admin/forms/event/submissions/\(id)/delete", reader).status == 403)
            let export = try Self.get(port, "/admin/forms/event/export.csv", reader)
            #expect(export.status == 403)
            #expect(export.text.contains("lacks the export scope"))
            let token = try #require(Self.hidden(page.text, "_csrf"))
            #expect(
                try Self.post(port, "/admin/forms/event/submissions/\(id)/delete", reader, token: token).status == 403)
            #expect(try Self.get(port, "/admin/forms/event/submissions/\(id)", reader).status == 200)

            let (_, petsSession) = try Self.signIn(port, keys["pets-only"]!)
            let pets = try #require(petsSession)
            let overview = try Self.get(port, "/admin", pets)
            #expect(overview.text.contains("/admin/forms/pets"))
            #expect(!overview.text.contains("/admin/forms/event"))
            #expect(try Self.get(port, "/admin/forms/event", pets).status == 404)
            #expect(try Self.get(port, "/admin/forms/event/submissions/\(id)", pets).status == 404)
        }
    }

    @Test(arguments: ["sqlite", "postgres"])
    func aDeletionIsConfirmedCarriesItsTokenAndLeavesA404(_ backend: String) async throws {
        try await withAdmin(backend) { port, keys in
            let id = try Self.keep(port)
            let kept = try Self.keep(port, title: "Dinner")
            let (_, opened) = try Self.signIn(port, keys["ops"]!)
            let session = try #require(opened)
            let path = "/admin/forms/event/submissions/\(id)"
            let confirm = try Self.get(port, path + "/delete", session)
            #expect(confirm.status == 200)
            #expect(confirm.text.contains("Delete submission \(id)?"))
            let token = try #require(Self.hidden(confirm.text, "_csrf"))
            #expect(try Self.post(port, path + "/delete", session, token: nil).status == 403)
            #expect(try Self.get(port, path, session).status == 200)
            let erased = try Self.post(port, path + "/delete", session, token: token)
            #expect(erased.status == 303)
            #expect(erased.header("Location") == "/admin/forms/event?deleted=\(id)")
            let table = try Self.get(port, "/admin/forms/event?deleted=\(id)", session)
            #expect(table.text.contains("Submission \(id) was deleted."))
            // A link cannot make the page claim the deletion of a submission that is there.
            #expect(!(try Self.get(port, "/admin/forms/event?deleted=\(kept)", session).text.contains("was deleted")))
            #expect(table.text.contains(kept))
            #expect(!table.text.contains("submissions/\(id)"))
            #expect(try Self.get(port, path, session).status == 404)
            #expect(try Self.post(port, path + "/delete", session, token: token).status == 404)
            #expect(try Self.get(port, "/admin/forms/event/submissions/not-an-id", session).status == 404)
            #expect(try Self.get(port, "/admin", session).text.contains("<td>1</td>"))
        }
    }

    /// Submissions are anyone's text: every page shows it escaped, never as markup.
    @Test(arguments: ["sqlite", "postgres"])
    func submittedTextIsEscapedOnEveryPage(_ backend: String) async throws {
        try await withAdmin(backend) { port, keys in
            let attacks = [
                "<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>", "</textarea><svg onload=alert(1)>",
                "javascript:alert(1)", "{{7*7}} &amp; <!--",
            ]
            var ids: [String] = []
            for attack in attacks { ids.append(try Self.keep(port, title: attack)) }
            let (_, opened) = try Self.signIn(port, keys["ops"]!)
            let session = try #require(opened)
            var pages = [
                "/admin", "/admin/forms/event", "/admin/forms/event/charts",
                "/admin/forms/event?q="
                    + ("<script>".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""),
            ]
            pages += ids.map { "/admin/forms/event/submissions/\($0)" }
            for target in pages {
                let page = try Self.get(port, target, session)
                #expect(page.status == 200, "\(target)")
                for raw in ["<script>", "<img src=x", "<svg onload", "</textarea>", "<!--"] {
                    #expect(!page.text.contains(raw), "\(target) holds \(raw)")
                }
            }
            let searched = try Self.get(port, "/admin/forms/event?q=%3Cscript%3E", session)
            #expect(searched.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            #expect(searched.text.contains(ids[0]))
            #expect(!searched.text.contains(ids[1]))
        }
    }

    @Test func pagesSpeakTheReadersLanguage() async throws {
        try await withAdmin("sqlite") { port, keys in
            let signIn = try Self.get(port, "/admin/sign-in", nil, language: "zh-CN,en;q=0.5")
            #expect(signIn.text.contains(#"<html lang="zh-Hans">"#))
            #expect(signIn.text.contains("API 密钥"))
            let (_, opened) = try Self.signIn(port, keys["ops"]!)
            let session = try #require(opened)
            let overview = try Self.get(port, "/admin", session, language: "zh-Hans")
            #expect(overview.text.contains("提交记录"))
            #expect(try Self.get(port, "/admin", session, language: "fr, en").text.contains(#"<html lang="en">"#))
        }
    }
}
