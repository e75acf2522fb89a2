import Foundation
import HTTPTestClient
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension CommandSuites {
    /// The accounts `formwright-examples serve` keeps for `Forms/account.yaml` (`ExampleAccounts`), over
    /// loopback.
    @Suite struct ExampleAccountsTests {
        /// A browser's cookie and token from `target`'s page.
        static func session(_ port: Int, _ target: String) throws -> (cookie: String, token: String) {
            let page = try request(port, target)
            let cookie = try #require(page.header("Set-Cookie")).split(separator: ";")[0]
            let marker = #"name="_csrf" value=""#
            let start = try #require(page.text.range(of: marker)).upperBound
            let token = page.text[start...].prefix { $0 != "\"" }
            return (String(cookie), String(token))
        }

        static func post(
            _ port: Int, _ target: String, _ form: String, session: (cookie: String, token: String)
        )
            throws -> TestResponse
        {
            try request(
                port, "POST", target,
                headers: [
                    "Content-Type": "application/x-www-form-urlencoded", "Cookie": session.cookie,
                    "Accept": "text/html",
                ],
                body: "_csrf=\(session.token)&" + form)
        }

        static func json(_ port: Int, _ target: String, _ body: String) throws -> TestResponse {
            try request(
                port, "POST", target, headers: ["Content-Type": "application/json", "Accept": "application/json"],
                body: body)
        }

        /// Runs `body` against `formwright serve` on the example forms, stopped by SIGTERM afterwards.
        static func withServe(_ body: (Int) throws -> Void) throws {
            let server = try FormwrightProcess(["serve", "--port", "0"], binary: examplesBinary)
            defer {
                server.signal(SIGTERM)
                _ = server.waitForExit()
            }
            try body(try #require(server.listeningPort(), "no listening line in: \(server.text)"))
        }

        @Test func aNewAccountCannotTakeTheNameOfASavedOne() async throws {
            try await offPool {
                try Self.withServe { port in
                    // A browser on the new-account page saves the name "grace".
                    let session = try Self.session(port, "/forms/account")
                    let page = try Self.post(
                        port, "/forms/account", "username=grace&email=eve%40example.com&plan=free", session: session)
                    #expect(page.status == 422)
                    let text = page.text.replacingOccurrences(of: "&#39;", with: "'")
                    #expect(text.contains("The user name 'grace' is taken: choose another one."))
                    #expect(text.contains(#"name="email" value="eve@example.com""#))
                    // An API client too.
                    let api = try Self.json(port, "/forms/account", #"{"username":"grace","email":"eve@example.com"}"#)
                    #expect(api.status == 422)
                    #expect(
                        api.text
                            == #"{"errors":[{"tag":"username","message":"The user name 'grace' is taken: choose another one.","code":"refused"}]}"#
                    )
                    // Grace's account is as it was.
                    let grace = try request(port, "/forms/account?user=grace")
                    #expect(grace.text.contains(#"name="email" value="grace@example.com""#))
                    #expect(grace.text.contains(#"name="member-since" value="2025-02-03""#))
                    // An edit saves the account it edits, whatever user name is posted.
                    let edit = try Self.json(
                        port, "/forms/account?user=ada", #"{"username":"grace","email":"ada@new.example"}"#)
                    #expect(edit.status == 200)
                    #expect(edit.text.contains(#""username":"ada""#))
                    // The answer holds a stored record: no cache keeps it, and no browser sniffs it.
                    #expect(edit.header("Cache-Control") == "no-store")
                    #expect(edit.header("X-Content-Type-Options") == "nosniff")
                    #expect(edit.header("Content-Type") == "application/json")
                    #expect(try request(port, "/forms/account?user=grace").text.contains("grace@example.com"))
                    // A free name makes a new account.
                    let new = try Self.json(port, "/forms/account", #"{"username":"hopper","email":"h@example.com"}"#)
                    #expect(new.status == 200)
                }
            }
        }

        @Test func anAccountThatDoesNotExistIsANotFoundPageOrJSON() async throws {
            try await offPool {
                try Self.withServe { port in
                    let page = try request(
                        port, "/forms/account?user=zed", headers: ["Accept-Language": "zh-CN,zh;q=0.9"])
                    #expect(page.status == 404)
                    #expect(page.header("Content-Type") == "text/html; charset=utf-8")
                    #expect(page.text.contains("找不到记录"))
                    #expect(
                        page.text.replacingOccurrences(of: "&#39;", with: "'").contains(
                            #"<p class="fw-message" lang="en">There is no account named 'zed'.</p>"#))
                    let api = try Self.json(port, "/forms/account?user=zed", "{}")
                    #expect(api.status == 404)
                    #expect(
                        api.text
                            == #"{"errors":[{"tag":"","message":"There is no account named 'zed'.","code":"notFound"}]}"#
                    )
                }
            }
        }

        /// Two people edit Grace's account: the second save, made from the version both opened, is a 409
        /// page with their values, and saves when sent again; an API client's stale `If-Match` is a 412.
        @Test func twoEditorsOfOneAccountDoNotOverwriteEachOtherUnseen() async throws {
            try await offPool {
                try Self.withServe { port in
                    let target = "/forms/account?user=grace"
                    let first = try Self.session(port, target)
                    let second = try Self.session(port, target)
                    let etag = try request(port, target, headers: ["Accept": "application/json"]).header("ETag")
                    #expect(etag == #""1""#)
                    let saved = try Self.post(
                        port, target, "_version=1&email=grace%40hopper.example&plan=free", session: first)
                    #expect(saved.status == 303)
                    let refused = try Self.post(
                        port, target, "_version=1&email=g%40example.com&plan=free", session: second)
                    #expect(refused.status == 409)
                    #expect(refused.text.contains("Someone else saved this record"))
                    #expect(refused.text.contains(#"value="g@example.com""#))
                    #expect(refused.text.contains(#"name="_version" value="2""#))
                    let again = try Self.post(
                        port, target, "_version=2&email=g%40example.com&plan=free", session: second)
                    #expect(again.status == 303)
                    let stale = try request(
                        port, "POST", target,
                        headers: [
                            "Content-Type": "application/json", "Accept": "application/json", "If-Match": #""2""#,
                        ],
                        body: #"{"email":"api@example.com"}"#)
                    #expect(stale.status == 412)
                    #expect(stale.header("ETag") == #""3""#)
                    let read = try request(port, target, headers: ["Accept": "application/json"])
                    #expect(read.text.contains("g@example.com"))
                }
            }
        }

        @Test func theExampleRefusesTheAccountPastItsLimitKeepingTheValues() async throws {
            try await offPool {
                try Self.withServe { port in
                    // Ada and Grace, and 98 more: 100 accounts.
                    for number in 1...98 {
                        let saved = try Self.json(
                            port, "/forms/account", #"{"username":"user\#(number)","email":"u\#(number)@example.com"}"#)
                        try #require(saved.status == 200, "account \(number): \(saved.text)")
                    }
                    let api = try Self.json(port, "/forms/account", #"{"username":"extra","email":"x@example.com"}"#)
                    #expect(api.status == 422)
                    #expect(api.text.contains(#""tag":"""#))
                    #expect(api.text.contains(#""code":"refused""#))
                    #expect(api.text.contains("at most 100 accounts"))
                    let session = try Self.session(port, "/forms/account")
                    let page = try Self.post(
                        port, "/forms/account", "username=extra&email=x%40example.com&plan=free", session: session)
                    #expect(page.status == 422)
                    #expect(page.text.contains("at most 100 accounts"))
                    #expect(page.text.contains(#"name="username" value="extra""#))
                    // Saved accounts can still be edited.
                    let edit = try Self.json(port, "/forms/account?user=user7", #"{"email":"seven@example.com"}"#)
                    #expect(edit.status == 200)
                }
            }
        }
    }
}
