import FormEngine
import Foundation
import HTTPServer
import HTTPTestClient
import Synchronization
import Testing

@testable import FormServer

/// A Swift handler refusing a valid submission (`ValidSubmission.refuse`) and knowing the record it
/// saves (`ValidSubmission.record`), end to end over loopback on `Forms/account.yaml`.
@Suite struct HandlerRefusalTests {
    /// Saved accounts by user name, as a provider and a handler share them.
    final class Accounts: Sendable {
        let saved = Mutex<[String: JSONValue]>([:])
        /// The `record` each submission the handler got carried (`.null` for none).
        let records = Mutex<[JSONValue]>([])

        init(_ names: [String]) {
            saved.withLock { accounts in
                for name in names {
                    accounts[name] = .object([
                        ("member-since", .string("2024-05-12")), ("username", .string(name)),
                        ("email", .string("\(name)@example.com")),
                    ])
                }
            }
        }
    }

    /// `?user=NAME` edits that account (as `.json` bytes for `ada`, as a `JSONValue` otherwise); the
    /// handler refuses a new account whose name is taken, an e-mail address `taken@example.com`, and
    /// whatever tags a `refuse` field lists (`tag=message;…`).
    static func hooks(_ accounts: Accounts) -> FormHooks {
        var hooks = exampleHooks()
        hooks.records("account") { request in
            guard let user = request.query["user"] else { return .none }
            guard let saved = accounts.saved.withLock({ $0[user] }) else { return .notFound("No account '\(user)'") }
            return user == "ada" ? .json(saved.bytes) : .record(saved)
        }
        hooks.handle("account") { submission in
            accounts.records.withLock { $0.append(submission.record ?? .null) }
            guard case .string(let user)? = submission.httpParameters["username"] else { return submission.refuse([]) }
            if submission.request.query["gone"] != nil { return submission.notFound("Deleted meanwhile") }
            if let list = submission.request.query["refuse"] {
                let refusals = list.split(separator: ";").map { pair in
                    let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                    return (tag: parts[0], message: parts.count > 1 ? parts[1] : "")
                }
                return submission.refuse(refusals)
            }
            if submission.record == nil, accounts.saved.withLock({ $0[user] }) != nil {
                return submission.refuse("username", "The user name '\(user)' is taken")
            }
            if submission.httpParameters["email"] == .string("taken@example.com") {
                return submission.refuse("email", "Another account has this address")
            }
            accounts.saved.withLock { $0[user] = submission.httpParameters }
            return .text(.created, "saved \(user)")
        }
        return hooks
    }

    static func unescaped(_ html: String) -> String {
        html.replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&quot;", with: "\"")
    }

    @Test func aBrowserGetsTheFormAgainWithTheRefusalBesideItsField() async throws {
        let accounts = Accounts(["grace"])
        let page = try await withFormApp(hooks: Self.hooks(accounts)) { _, port in
            let session = try StoredRecordsTests.session(port, "/forms/account")
            return try StoredRecordsTests.post(
                port, "/forms/account", [("username", "grace"), ("email", "new@example.com"), ("plan", "free")],
                accept: "text/html", session: session)
        }
        #expect(page.status == 422)
        let text = Self.unescaped(page.text)
        // The values are kept, the error stands beside the user name and in the summary, which links to it.
        #expect(text.contains(#"name="username" value="grace""#))
        #expect(text.contains(#"name="email" value="new@example.com""#))
        #expect(text.components(separatedBy: "The user name 'grace' is taken").count == 3)
        #expect(text.contains(##"href="#fw-username""##))
        #expect(text.contains(#"aria-invalid="true""#))
        #expect(text.contains(#"action="/forms/account""#))
        // Grace's account is as it was.
        #expect(accounts.saved.withLock { $0["grace"]?["email"] } == .string("grace@example.com"))
    }

    @Test func aRefusedEditComesBackToTheRecordsAddress() async throws {
        let accounts = Accounts(["ada"])
        let page = try await withFormApp(hooks: Self.hooks(accounts)) { _, port in
            let session = try StoredRecordsTests.session(port, "/forms/account?user=ada")
            return try StoredRecordsTests.post(
                port, "/forms/account?user=ada", [("email", "taken@example.com"), ("plan", "free")],
                accept: "text/html", session: session)
        }
        #expect(page.status == 422)
        let text = Self.unescaped(page.text)
        #expect(text.contains(#"action="/forms/account?user=ada""#))
        #expect(text.contains(#"name="username" value="ada" autocomplete="username" required disabled"#))
        #expect(text.contains(#"name="email" value="taken@example.com""#))
        #expect(text.components(separatedBy: "Another account has this address").count == 3)
        #expect(accounts.saved.withLock { $0["ada"]?["email"] } == .string("ada@example.com"))
    }

    @Test func aJSONClientGetsTheRefusalAsA422() async throws {
        let accounts = Accounts(["grace"])
        let (taken, free) = try await withFormApp(hooks: Self.hooks(accounts)) { _, port in
            (
                try postJSON(port, "account", #"{"username":"grace","email":"new@example.com"}"#),
                try postJSON(port, "account", #"{"username":"hopper","email":"hopper@example.com"}"#)
            )
        }
        #expect(taken.status == 422)
        #expect(taken.header("Content-Type") == "application/json")
        #expect(
            taken.text
                == #"{"errors":[{"tag":"username","message":"The user name 'grace' is taken","code":"refused"}]}"#)
        #expect(free.status == 201)
        #expect(accounts.saved.withLock { $0["grace"]?["email"] } == .string("grace@example.com"))
    }

    @Test func tagsThatNameNoFieldAreErrorsAboutTheWholeForm() async throws {
        let accounts = Accounts([])
        let refuse = "refuse=nickname%3DNo+such+field%3Bdevices%5B1%5D%3DStolen"
        let (json, page) = try await withFormApp(hooks: Self.hooks(accounts)) { _, port in
            let json = try postJSON(
                port, "account", #"{"username":"hopper","email":"h@example.com","devices":["a","","b"]}"#,
                path: "/forms/account?" + refuse)
            let session = try StoredRecordsTests.session(port, "/forms/account?" + refuse)
            let page = try StoredRecordsTests.post(
                port, "/forms/account?" + refuse, [("username", "hopper"), ("email", "h@example.com")],
                accept: "text/html", session: session)
            return (json, page)
        }
        #expect(json.status == 422)
        // The unknown tag is the form's; the second device in httpParameters was the third item sent.
        #expect(
            json.text
                == #"{"errors":[{"tag":"","message":"No such field","code":"refused"},{"tag":"devices[2]","message":"Device 3: Stolen","code":"refused"}]}"#
        )
        #expect(page.status == 422)
        #expect(page.text.contains("No such field"))
    }

    @Test func theHandlerKnowsTheRecordItSaves() async throws {
        let accounts = Accounts(["ada", "grace"])
        try await withFormApp(hooks: Self.hooks(accounts)) { _, port in
            _ = try postJSON(port, "account", #"{"username":"hopper","email":"h@example.com"}"#)
            _ = try postJSON(port, "account", #"{"email":"ada@new.example"}"#, path: "/forms/account?user=ada")
            _ = try postJSON(port, "account", #"{"email":"grace@new.example"}"#, path: "/forms/account?user=grace")
        }
        let records = accounts.records.withLock { $0 }
        #expect(records.count == 3)
        #expect(records.first == .null)  // a new account
        // As the provider gave it: JSON bytes for ada, a JSONValue for grace.
        #expect(records.dropFirst().first?["username"] == .string("ada"))
        #expect(records.dropFirst().first?["member-since"] == .string("2024-05-12"))
        #expect(records.last?["username"] == .string("grace"))
    }

    @Test func aNotFoundIsAPageInTheReadersLanguageOrJSON() async throws {
        let accounts = Accounts([])
        let (english, chinese, json, gone) = try await withFormApp(hooks: Self.hooks(accounts)) { _, port in
            (
                try request(port, "/forms/account?user=zed"),
                try request(port, "/forms/account?user=zed", headers: ["Accept-Language": "zh-CN"]),
                try postJSON(port, "account", "{}", path: "/forms/account?user=zed"),
                // A handler's own: the record went away between the page and the submission.
                try postJSON(
                    port, "account", #"{"username":"hopper","email":"h@example.com"}"#, path: "/forms/account?gone=1")
            )
        }
        #expect(english.status == 404)
        #expect(english.header("Content-Type") == "text/html; charset=utf-8")
        #expect(english.text.contains("Not found"))
        #expect(Self.unescaped(english.text).contains("No account 'zed'"))
        #expect(english.text.contains(#"href="/forms""#))
        #expect(chinese.status == 404)
        #expect(chinese.text.contains(#"lang="zh-Hans""#))
        #expect(chinese.text.contains("找不到记录"))
        // The application's message is in the form's language, and marked so on a Chinese page.
        #expect(chinese.text.contains(#"<p class="fw-message" lang="en">"#))
        #expect(json.status == 404)
        #expect(json.text == #"{"errors":[{"tag":"","message":"No account 'zed'","code":"notFound"}]}"#)
        #expect(gone.status == 404)
        #expect(gone.text == #"{"errors":[{"tag":"","message":"Deleted meanwhile","code":"notFound"}]}"#)
    }
}
