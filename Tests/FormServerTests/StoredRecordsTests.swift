import FormEngine
import Foundation
import HTTPServer
import HTTPTestClient
import Synchronization
import Testing

@testable import FormServer

/// Forms that edit stored records (`FormHooks.records`), end to end over loopback, on
/// `Forms/account.yaml`: its user name is disabled once the account has a `member-since` date.
@Suite struct StoredRecordsTests {
    static let ada =
        #"{"member-since":"2024-05-12","username":"ada","email":"ada@example.com","plan":"pro","newsletter":true,"renews":"2027-01-01T09:00:00+01:00","devices":["laptop","phone"]}"#

    /// `?user=ada` edits Ada's account, no `user` makes a new one, any other name is a 404.
    static func hooks(async: Bool = false, record: String = ada) -> FormHooks {
        var hooks = exampleHooks()
        let find: @Sendable (Request) -> RecordLookup = { request in
            switch request.query["user"] {
            case nil: .none
            case "ada": .json(Array(record.utf8))
            default: .answer(.error(.notFound, "no such account"))
            }
        }
        if async {
            hooks.records(
                "account",
                async: { request in
                    try? await Task.sleep(for: .milliseconds(20))  // a database's answer
                    return find(request)
                })
        } else {
            hooks.records("account", find)
        }
        return hooks
    }

    /// Opens `target` like a browser: its cookie and token.
    static func session(_ port: Int, _ target: String) throws -> (cookie: String, token: String) {
        let page = try request(port, target)
        let cookie = try #require(page.header("Set-Cookie")).split(separator: ";")[0]
        return (String(cookie), try #require(BrowserSession.hiddenValue(named: "_csrf", in: page.text)))
    }

    static func post(
        _ port: Int, _ target: String, _ pairs: [(String, String)], accept: String,
        session: (cookie: String, token: String)
    ) throws -> TestResponse {
        let body = ([("_csrf", session.token)] + pairs).map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
        return try request(
            port, "POST", target,
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Cookie": session.cookie, "Accept": accept],
            body: body)
    }

    @Test func thePageShowsTheRecordAndPostsBackToItsOwnAddress() async throws {
        let (ada, fresh, missing) = try await withFormApp(hooks: Self.hooks()) { _, port in
            (
                try request(port, "/forms/account?user=ada"), try request(port, "/forms/account"),
                try request(port, "/forms/account?user=zed")
            )
        }
        #expect(ada.status == 200)
        #expect(ada.header("Set-Cookie")?.hasPrefix("fw_csrf=") == true)
        #expect(ada.text.contains(#"action="/forms/account?user=ada""#))
        #expect(ada.text.contains(#"name="username" value="ada" autocomplete="username" required disabled"#))
        #expect(ada.text.contains(#"name="member-since" value="2024-05-12" disabled"#))
        #expect(ada.text.contains(#"name="renews" value="2027-01-01T09:00""#))
        #expect(ada.text.contains(#"name="devices" value="phone""#))
        // No user: a new account, from the descriptor's values, posting to the form's own address.
        #expect(fresh.status == 200)
        #expect(fresh.text.contains(#"action="/forms/account""#))
        #expect(!fresh.text.contains("ada"))
        // Open: no member-since yet.
        #expect(fresh.text.contains(#"name="username" autocomplete="username" required>"#))
        // The provider's own answer for a record that does not exist.
        #expect(missing.status == 404)
        #expect(missing.text.contains("no such account"))
    }

    /// An API client reads the record before it edits it: the payload's two shapes, as the form reads it.
    @Test func anAPIClientReadsTheRecordAsJSON() async throws {
        let json = ["Accept": "application/json"]
        let (ada, fresh, missing) = try await withFormApp(hooks: Self.hooks()) { _, port in
            (
                try request(port, "/forms/account?user=ada", headers: json),
                try request(port, "/forms/account", headers: json),
                try request(port, "/forms/account?user=zed", headers: json)
            )
        }
        #expect(ada.status == 200)
        #expect(ada.header("Content-Type") == "application/json")
        #expect(ada.text.hasPrefix(#"{"httpParameters":{"member-since":"2024-05-12","username":"ada""#))
        #expect(ada.text.contains(#""devices":["laptop","phone"]"#))
        #expect(ada.text.contains(#""plan":{"value":"pro","title":"Pro"}"#))  // formValues
        #expect(fresh.status == 200)
        #expect(fresh.text.contains(#""username":null"#))
        // The provider's answer stands: this one is an HTML 404 of the application's own.
        #expect(missing.status == 404)
    }

    @Test func aBrowserPostCannotChangeWhatTheRecordKeeps() async throws {
        let answer = try await withFormApp(hooks: Self.hooks()) { _, port in
            let session = try Self.session(port, "/forms/account?user=ada")
            return try Self.post(
                port, "/forms/account?user=ada",
                [("username", "eve"), ("member-since", "2001-01-01"), ("email", "ada@new.example"), ("plan", "free")],
                accept: "application/json", session: session)
        }
        #expect(answer.status == 200)
        let payload = try #require(JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any])
        let parameters = try #require(payload["httpParameters"] as? [String: Any])
        #expect(parameters["username"] as? String == "ada")
        #expect(parameters["member-since"] as? String == "2024-05-12")
        #expect(parameters["email"] as? String == "ada@new.example")
        #expect(parameters["devices"] as? [String] == [])  // a browser that posts no item has none
    }

    @Test func aRefusedPostComesBackWithTheRecordAndItsAddress() async throws {
        let page = try await withFormApp(hooks: Self.hooks()) { _, port in
            let session = try Self.session(port, "/forms/account?user=ada")
            return try Self.post(
                port, "/forms/account?user=ada", [("username", "eve"), ("email", ""), ("plan", "free")],
                accept: "text/html", session: session)
        }
        #expect(page.status == 422)
        #expect(page.text.contains(#"action="/forms/account?user=ada""#))
        // The disabled user name shows the record's value, not what was posted.
        #expect(page.text.contains(#"name="username" value="ada" autocomplete="username" required disabled"#))
        #expect(!page.text.contains(#"value="eve""#))
        #expect(page.text.contains("Email can&#39;t be empty") || page.text.contains("Email can't be empty"))
    }

    @Test func aJSONClientKeepsTheStoredValuesOfWhatItLeavesOut() async throws {
        let answer = try await withFormApp(hooks: Self.hooks()) { _, port in
            try postJSON(
                port, "account", #"{"email":"ada@new.example","username":"eve"}"#, path: "/forms/account?user=ada")
        }
        #expect(answer.status == 200)
        #expect(answer.text.contains(#""username":"ada""#))
        #expect(answer.text.contains(#""newsletter":true"#))
        #expect(answer.text.contains(#""devices":["laptop","phone"]"#))
    }

    @Test func aProviderThatAwaitsServesPagesAndSubmissions() async throws {
        let (page, answer) = try await withFormApp(hooks: Self.hooks(async: true)) { _, port in
            (
                try request(port, "/forms/account?user=ada"),
                try postJSON(port, "account", #"{"username":"eve"}"#, path: "/forms/account?user=ada")
            )
        }
        #expect(page.status == 200)
        #expect(page.text.contains(#"name="username" value="ada""#))
        #expect(answer.status == 200)
        #expect(answer.text.contains(#""username":"ada""#))
    }

    @Test func aRecordThatNoLongerFitsTheFormIsAServerErrorNotAnEdit() async throws {
        let log = try LineLogHandlerTests.PipeLog()
        let (page, chinese, answer) = try await withFormApp(
            hooks: Self.hooks(record: #"{"plan":"gold"}"#), logger: log.logger("formwright")
        ) { _, port in
            (
                try request(port, "/forms/account?user=ada"),
                try request(port, "/forms/account?user=ada", headers: ["Accept-Language": "zh"]),
                try postJSON(port, "account", #"{"email":"ada@example.com"}"#, path: "/forms/account?user=ada")
            )
        }
        // A page that says what happened, in the reader's language, with a way out.
        #expect(page.status == 500)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.text.contains("This record cannot be edited"))
        #expect(page.text.contains(#"href="/forms""#))
        #expect(chinese.status == 500)
        #expect(chinese.text.contains(#"lang="zh-Hans""#))
        #expect(chinese.text.contains("无法编辑此记录"))
        #expect(answer.status == 500)
        #expect(answer.header("Content-Type") == "application/json")
        #expect(answer.text.contains(#""code":"record""#))
        // The application's data is not shown to the reader; the log names the form, the address and
        // the value, so whoever reads it knows which record to fix.
        for response in [page, chinese, answer] { #expect(!response.text.contains("gold")) }
        log.sink.flush()
        let refused = log.read().filter { $0.contains("stored record refused") }
        #expect(refused.count == 3)
        let line = try #require(refused.last)
        #expect(line.contains("form=account"))
        #expect(line.contains("target=/forms/account?user=ada"))
        #expect(line.contains("key=plan"))
        #expect(line.contains(#"value="gold""#))
    }

    @Test func theSessionExpiredPageLeadsBackToTheRecord() async throws {
        let (page, fresh) = try await withFormApp(hooks: Self.hooks()) { _, port in
            let session = try Self.session(port, "/forms/account?user=ada")
            let headers = [
                "Content-Type": "application/x-www-form-urlencoded", "Cookie": session.cookie, "Accept": "text/html",
            ]
            return (
                try request(port, "POST", "/forms/account?user=ada", headers: headers, body: "email=ada%40new.example"),
                try request(port, "POST", "/forms/account", headers: headers, body: "email=ada%40new.example")
            )
        }
        #expect(page.status == 403)
        #expect(page.text.contains(#"href="/forms/account?user=ada""#))
        // A post without a record goes back to the form's own page.
        #expect(fresh.status == 403)
        #expect(fresh.text.contains(#"href="/forms/account""#))
    }

    @Test func recordsForAFormThatDoesNotExistStopTheServerAtStart() throws {
        var hooks = exampleHooks()
        hooks.records("acount") { _ in .none }
        var configuration = FormServerConfiguration()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        configuration.formsFolder = root.appendingPathComponent("Forms").path
        configuration.publicFolder = root.appendingPathComponent("Public").path
        #expect {
            _ = try FormServerApp(configuration: configuration, hooks: hooks)
        } throws: { error in
            "\(error)".contains("stored records are provided for the form 'acount', which does not exist")
        }
    }

    @Test func aRowThatMayBeDisabledLiveCarriesTheServersValueAfterARefusedPost() async throws {
        // With six tickets the group name is enabled, and "AB" is too short: the page comes back with
        // "AB" in it, and the value the server keeps when it is disabled again for the page script.
        let page = try await withFormApp { _, port in
            try BrowserSession(port: port, form: "others").post("others", [("count", "6"), ("group_name", "AB")])
        }
        #expect(page.status == 422)
        #expect(page.text.contains(#"data-fw-server="[&quot;Our group&quot;]""#))
        #expect(page.text.contains(#"name="group_name" value="AB""#))
    }
}
