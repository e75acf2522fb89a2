import FormEngine
import FormModel
import Foundation
import HTTPServer
import HTTPTestClient
import Synchronization
import Testing

@testable import FormServer

/// The form routes end to end, over a real loopback socket, on the example forms.
@Suite struct FormRoutesTests {
    @Test func indexListsEveryForm() async throws {
        let page = try await withFormServer { port in try request(port, "/forms") }
        #expect(page.status == 200)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        // The index is in the reader's language: a cache must keep one per Accept-Language.
        #expect(page.header("Vary") == "Accept-Language")
        for id in ["event", "pets", "multivalued", "validations"] {
            #expect(page.text.contains("href=\"/forms/\(id)\""))
        }
    }

    @Test func pageCarriesACSRFCookieAndTokenAndASecurityPolicy() async throws {
        let page = try await withFormServer { port in try request(port, "/forms/event") }
        #expect(page.status == 200)
        #expect(page.header("Set-Cookie")?.hasPrefix("fw_csrf=") == true)
        #expect(page.header("Set-Cookie")?.contains("HttpOnly; SameSite=Lax") == true)
        #expect(page.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
        #expect(page.header("Cache-Control") == "no-store")
        #expect(BrowserSession.hiddenValue(named: "_csrf", in: page.text)?.count == 43)
        #expect(page.text.contains("Team") == false)  // nothing entered yet
    }

    @Test func everyPageRequestGetsItsOwnNonceAndAMatchingToken() async throws {
        // Pages are sent from reused responses (`ResponseTemplate`): nothing of one request may remain
        // in the next, on one form or across forms.
        let pages = try await withFormServer { port in
            try ["event", "pets", "event", "pets", "event"].map { form in (form, try request(port, "/forms/\(form)")) }
        }
        let guardian = CSRFGuard(secret: "test secret")
        var nonces: Set<String> = []
        for (form, page) in pages {
            #expect(page.status == 200)
            let cookie = try #require(page.header("Set-Cookie"))
            let nonce = String(cookie.split(separator: ";")[0].dropFirst("fw_csrf=".count))
            nonces.insert(nonce)
            let token = BrowserSession.hiddenValue(named: "_csrf", in: page.text)
            #expect(token == guardian.token(formID: form, nonce: nonce))
            #expect(page.text.contains("action=\"/forms/\(form)\""))
        }
        #expect(nonces.count == pages.count)
    }

    @Test func aReaderWithANonceKeepsItAndGetsItsToken() async throws {
        let nonce = "AAAAAAAAAAAAAAAAAAAAAA"
        let (fresh, returning) = try await withFormServer { port in
            (
                try request(port, "/forms/event"),
                try request(port, "/forms/event", headers: ["Cookie": "fw_csrf=\(nonce)"])
            )
        }
        #expect(fresh.header("Set-Cookie") != nil)
        #expect(returning.header("Set-Cookie") == nil)
        let token = BrowserSession.hiddenValue(named: "_csrf", in: returning.text)
        #expect(token == CSRFGuard(secret: "test secret").token(formID: "event", nonce: nonce))
    }

    /// `/healthz` is plain text no browser sniffs into anything else.
    @Test func healthIsPlainTextThatIsNotSniffed() async throws {
        let health = try await withFormServer { port in try request(port, "/healthz") }
        #expect(health.status == 200 && health.text == "ok")
        #expect(health.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(health.header("X-Content-Type-Options") == "nosniff")
    }

    /// A post that carries the CSRF token twice is refused, as any field sent twice is: which token
    /// counts would be a guess. Both tokens valid, it is still refused.
    @Test func aTokenSentTwiceIsRefused() async throws {
        let (page, json, single) = try await withFormServer { port in
            let session = try BrowserSession(port: port, form: "event")
            return (
                try session.post("event", [("_csrf", session.token)] + validEventPairs),
                try session.post("event", [("_csrf", "other")] + validEventPairs, accept: "application/json"),
                try session.post("event", validEventPairs, accept: "application/json")
            )
        }
        #expect(page.status == 400)
        #expect(page.text.contains("was sent more than once"))
        #expect(json.status == 400)
        #expect(
            json.text
                == #"{"errors":[{"tag":"","message":"the form's security token (_csrf) was sent more than once","code":"sentMoreThanOnce"}]}"#
        )
        #expect(single.status == 200)
    }

    /// A form's own page, found from the raw target by one lookup, is the page the parsed and routed
    /// target gets for the same request: the same bytes for a returning reader in every language asked
    /// for, and the same fields. (`?` sends it through parsing and routing: a query is no plain target.)
    @Test func theLookedUpPageIsTheRoutedPage() async throws {
        let nonce = "CCCCCCCCCCCCCCCCCCCCCC"
        let cases: [[String: String]] = [
            ["Cookie": "fw_csrf=\(nonce)"],
            ["Cookie": "theme=dark; fw_csrf=\(nonce)", "Accept-Language": "zh-CN,zh;q=0.9"],
            ["Cookie": "fw_csrf=\"\(nonce)\"", "Accept-Language": "en-GB"],
        ]
        let pairs = try await withFormServer { port in
            try cases.map { headers in
                (
                    try request(port, "/forms/event", headers: headers),
                    try request(port, "/forms/event?", headers: headers)
                )
            }
        }
        for (lookedUp, routed) in pairs {
            #expect(lookedUp.status == 200 && routed.status == 200)
            #expect(lookedUp.body == routed.body)
            #expect(lookedUp.header("Set-Cookie") == nil && routed.header("Set-Cookie") == nil)
            let fields = { (response: TestResponse) in response.headers.filter { $0.name != "Date" }.map { "\($0)" } }
            #expect(fields(lookedUp) == fields(routed))
        }
        #expect(pairs[1].0.text.contains("lang=\"zh"))
    }

    /// New and returning readers in turn on one keep-alive connection: each reuses a response the one
    /// before gave back, with or without its cookie. A new reader (or one whose cookie is malformed)
    /// gets a fresh nonce whose token is on its page; a returning one gets no cookie and its own token.
    @Test func newAndReturningReadersInTurnEachGetTheirOwnCookieAndToken() async throws {
        let known = "BBBBBBBBBBBBBBBBBBBBBB"
        let cookies: [String?] = [nil, known, nil, nil, known, "fw_csrf=short", known, nil]
        let pages = try await withFormServer { port in
            let connection = try RawConnection(port: port)
            return try cookies.map { cookie in
                let field = cookie.map { "Cookie: \($0.hasPrefix("fw_csrf=") ? $0 : "fw_csrf=\($0)")\r\n" } ?? ""
                try connection.send("GET /forms/event HTTP/1.1\r\nHost: x\r\n\(field)\r\n")
                return try connection.readResponse()
            }
        }
        let guardian = CSRFGuard(secret: "test secret")
        var fresh: Set<String> = []
        for (cookie, page) in zip(cookies, pages) {
            #expect(page.status == 200)
            let token = BrowserSession.hiddenValue(named: "_csrf", in: page.text)
            if cookie == known {
                #expect(page.header("Set-Cookie") == nil)
                #expect(token == guardian.token(formID: "event", nonce: known))
            } else {
                let setCookie = try #require(page.header("Set-Cookie"))
                #expect(setCookie.hasSuffix("; Path=/forms; HttpOnly; SameSite=Lax"))
                let nonce = String(setCookie.split(separator: ";")[0].dropFirst("fw_csrf=".count))
                #expect(CSRFGuard.isWellFormed(nonce: nonce))
                #expect(token == guardian.token(formID: "event", nonce: nonce))
                fresh.insert(nonce)
            }
        }
        #expect(fresh.count == cookies.filter { $0 != known }.count)
    }

    @Test func descriptorJSONReadsBackIntoTheSameForm() async throws {
        let response = try await withFormServer { port in try request(port, "/forms/event.json") }
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        let loaded = try FormLoader().load(response.text, file: "event.json", defaultID: "x").get()
        let original = try FormLoader().loadFile(
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Forms/event.json").path
        ).get()
        #expect(loaded == original)
    }

    /// A missing form's 404 is negotiated as the server's own are, whichever route answers it: the page for
    /// a browser, JSON for an API client, plain text for anything else.
    @Test func unknownFormIs404() async throws {
        let (page, json, plain) = try await withFormServer { port in
            (
                try request(port, "/forms/nope", headers: ["Accept": "text/html"]), try postJSON(port, "nope", "{}"),
                try request(port, "/forms/nope")
            )
        }
        #expect(page.status == 404)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.text.contains("Page not found"))
        #expect(json.status == 404)
        #expect(json.text.contains(#""code":"notFound""#))
        #expect(plain.status == 404)
        #expect(plain.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(plain.text.contains("no such form at /forms/nope"))
    }

    @Test func validBrowserPostRedirectsToTheThankYouPage() async throws {
        let (posted, thanks) = try await withFormServer { port in
            let session = try BrowserSession(port: port, form: "event")
            let posted = try session.post("event", validEventPairs)
            return (posted, try request(port, posted.header("Location") ?? "/"))
        }
        #expect(posted.status == 303)
        #expect(posted.header("Location") == "/forms/event/thanks")
        #expect(thanks.status == 200)
        #expect(thanks.text.contains("Thank you"))
    }

    @Test func invalidBrowserPostRerendersWithValuesAndErrors() async throws {
        let page = try await withFormServer { port in
            let session = try BrowserSession(port: port, form: "event")
            return try session.post("event", [("title", "Team <lunch>"), ("guests", "abc")])
        }
        #expect(page.status == 422)
        #expect(page.text.contains("Team &lt;lunch&gt;"))
        #expect(page.text.contains("value=\"abc\""))
        #expect(page.text.contains("Guests must be a whole number"))
        #expect(page.text.contains("Starts can&#39;t be empty") || page.text.contains("Starts can't be empty"))
        #expect(page.text.contains("aria-invalid=\"true\""))
        #expect(BrowserSession.hiddenValue(named: "_csrf", in: page.text) != nil)
    }

    @Test func apiValidSubmissionAnswersBothPayloads() async throws {
        let response = try await withFormServer { port in try postJSON(port, "event", validEventJSON) }
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        #expect(
            response.text.hasPrefix(
                #"{"httpParameters":{"title":"Team lunch","location":null,"all-day":false,"starts":"2026-11-23T12:00:00+01:00""#
            ))
        #expect(response.text.contains(#""formValues":{"#))
        #expect(response.text.contains(#""alert":{"value":"15m","title":"15 minutes before"}"#))
    }

    @Test func apiInvalidSubmissionAnswers422WithErrors() async throws {
        let response = try await withFormServer { port in try postJSON(port, "event", #"{"guests":"abc"}"#) }
        #expect(response.status == 422)
        #expect(
            response.text
                == #"{"errors":[{"tag":"title","message":"Title can't be empty","code":"required"},{"tag":"starts","message":"Starts can't be empty","code":"required"},{"tag":"ends","message":"Ends can't be empty","code":"required"},{"tag":"guests","message":"Guests must be a whole number","code":"notAnInteger"}]}"#
        )
    }

    @Test func urlencodedPostAskingForJSONGetsJSON() async throws {
        let response = try await withFormServer { port in
            try BrowserSession(port: port, form: "event").post("event", validEventPairs, accept: "application/json")
        }
        #expect(response.status == 200)
        #expect(response.text.contains(#""guests":8"#))
    }

    @Test func chineseMessagesFollowAcceptLanguage() async throws {
        let response = try await withFormServer { port in
            try postJSON(port, "event", "{}", headers: ["Accept-Language": "zh-CN,zh;q=0.9,en;q=0.5"])
        }
        #expect(response.status == 422)
        #expect(response.text.contains("Title不能为空"))
    }

    @Test(arguments: ["missing", "wrong", "otherForm", "noCookie"])
    func csrfFailureIs403WithAPageThatSaysSo(kind: String) async throws {
        let (page, json) = try await withFormServer { port in
            let session = try BrowserSession(port: port, form: "event")
            let other = try BrowserSession(port: port, form: "pets")
            var token: String? = nil
            var cookie = session.cookie
            switch kind {
            case "missing": token = ""
            case "wrong": token = String(session.token.reversed())
            case "otherForm": token = other.token  // another form's token for the same browser is not this form's
            default: cookie = "fw_csrf=AAAAAAAAAAAAAAAAAAAAAA"
            }
            let forged = BrowserSession(copying: session, cookie: cookie)
            return (
                try forged.post("event", validEventPairs, token: token),
                try forged.post("event", validEventPairs, token: token, accept: "application/json")
            )
        }
        #expect(page.status == 403)
        #expect(page.text.contains("expired") || page.text.contains("token"))
        #expect(json.status == 403)
        #expect(json.text.contains(#""code":"csrf""#))
    }

    @Test func badBodiesGetClearClientErrors() async throws {
        let results = try await withFormServer(maxBody: 64 << 10) { port in
            let deep =
                #"{"title":"# + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}"
            return [
                try postJSON(port, "event", #"{"title": "#),
                try postJSON(port, "event", deep),
                try postJSON(port, "event", #"{"title":"a","title":"b"}"#),
                try request(port, "POST", "/forms/event", headers: ["Content-Type": "text/plain"], body: "x"),
                try request(
                    port, "POST", "/forms/event", headers: ["Content-Type": "application/json"],
                    body: #"{"notes":""# + String(repeating: "x", count: 100 << 10) + #""}"#),
            ]
        }
        #expect(results.map(\.status) == [400, 400, 400, 415, 413])
        #expect(results[1].text.contains("nested deeper than"))
        #expect(results[2].text.contains("appears more than once"))
    }

    /// An API client that sends JSON under another media type gets its 415 in JSON, saying what to
    /// send; a post to the descriptor's address is a wrong method (405, `Allow: GET, HEAD`), not a
    /// missing form, and any method on a missing form is a 404, not a 405.
    @Test func apiClientsMistakesGetJSONErrorsThatSayWhatToDo() async throws {
        let (textJSON, descriptor, descriptorPage, missing) = try await withFormServer { port in
            (
                try request(
                    port, "POST", "/forms/event", headers: ["Content-Type": "text/json"], body: validEventJSON),
                try postJSON(port, "event", validEventJSON, path: "/forms/event.json"),
                try request(
                    port, "POST", "/forms/event.json", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                    body: "title=x"),
                try postJSON(port, "nope", validEventJSON, path: "/forms/nope.json")
            )
        }
        #expect(textJSON.status == 415)
        #expect(textJSON.header("Content-Type")?.hasPrefix("application/json") == true)
        #expect(textJSON.text.contains("application/json"))
        #expect(textJSON.text.contains(#""code":"body""#))
        #expect(descriptor.status == 405)
        #expect(descriptor.header("Allow") == "GET, HEAD, OPTIONS")
        #expect(descriptor.text.contains(#""code":"methodNotAllowed""#))
        #expect(descriptor.header("X-Content-Type-Options") == "nosniff")
        #expect(missing.header("X-Content-Type-Options") == "nosniff")
        #expect(descriptor.text.contains("/forms/event"))
        #expect(descriptorPage.status == 405)
        #expect(descriptorPage.header("Allow") == "GET, HEAD, OPTIONS")
        #expect(descriptorPage.text.contains("POST is not allowed at /forms/event.json: it takes GET, HEAD, OPTIONS"))
        #expect(missing.status == 404)
    }

    /// RFC 9110 §15.5.6: a 405 says the resource is there. A method no route of a missing form (or static
    /// file) takes is a 404 as GET is; on one that exists it is a 405 listing the methods the path takes.
    @Test func aMissingFormIsNotFoundWhateverTheMethod() async throws {
        let answers = try await withFormServer { port in
            try [
                ("PUT", "/forms/nosuchform"), ("DELETE", "/forms/nosuchform.json"), ("PUT", "/forms/nosuchform/thanks"),
                ("GET", "/forms/nosuchform/explain"), ("POST", "/static/nosuch.css"), ("PUT", "/forms/event.json"),
                ("DELETE", "/forms/event"), ("PUT", "/forms/event/thanks"), ("DELETE", "/static/forms.css"),
            ].map { method, path in
                try request(port, method, path, headers: ["Accept": "application/json"], body: "")
            }
        }
        for missing in answers[..<5] {
            #expect(missing.status == 404)
            #expect(missing.header("Allow") == nil)
            #expect(missing.text.contains(#""code":"notFound""#))
        }
        // A body for a missing form is refused from the headers, however large it says it is.
        let unsent = try await withFormServer { port in
            let connection = try RawConnection(port: port)
            try connection.send(
                "PUT /forms/nosuchform HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n"
                    + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 50000000\r\n\r\n")
            return try connection.readResponse()
        }
        #expect(unsent.status == 404)
        #expect(unsent.text.contains(#""code":"notFound""#))
        #expect(answers[5].status == 405)
        #expect(answers[5].header("Allow") == "GET, HEAD, OPTIONS")
        #expect(answers[6].status == 405)
        #expect(answers[6].header("Allow") == "GET, POST, HEAD, OPTIONS")
        for existing in answers[7...] {
            #expect(existing.status == 405)
            #expect(existing.header("Allow") == "GET, HEAD, OPTIONS")
        }
    }

    /// A post to a form that is not there, or to a switched-off explanation, is answered from its headers
    /// by its route, in the route's words: before `100 Continue` would ask for the body, and a 404 however
    /// large the body says it is (RFC 9110 §10.1.1).
    @Test func aPostForNothingIsAnsweredBeforeItsBodyIsSent() async throws {
        let answers = try await withFormServer { port in
            try ["/forms/nosuchform", "/forms/event/explain"].map { path in
                let connection = try RawConnection(port: port)
                try connection.send(
                    "POST \(path) HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nExpect: 100-continue\r\n"
                        + "Content-Type: application/json\r\nContent-Length: 50000000\r\n\r\n")
                return try connection.readResponse()
            }
        }
        for answer in answers {
            #expect(answer.status == 404)
            #expect(answer.header("Connection") == "close")
        }
        #expect(answers[0].text.contains("no such form at /forms/nosuchform"))
        #expect(answers[1].text.contains("explanations are off (serve --explain)"))
    }

    /// A browser that asks for an address that is not there, by any method, reads a page in its language,
    /// as for a missing form; a client that does not ask for HTML keeps the plain-text answer.
    @Test func aBrowserAskingForNothingReadsAPageThatSaysSo() async throws {
        let browser = ["Accept": "text/html,application/xhtml+xml,*/*;q=0.8", "Accept-Language": "zh-CN,zh;q=0.9"]
        let (nowhere, put, plain, noFile, noFileJSON) = try await withFormServer { port in
            (
                try request(port, "/nowhere", headers: browser),
                try request(port, "PUT", "/forms/nosuchform", headers: browser, body: "x=1"),
                try request(port, "PUT", "/forms/nosuchform", body: "x=1"),
                try request(port, "/static/nosuch.css", headers: browser),
                try request(port, "/static/nosuch.css", headers: ["Accept": "application/json"])
            )
        }
        // A missing static file is one more address that is not there.
        #expect(noFileJSON.status == 404 && noFileJSON.text.contains(#""code":"notFound""#))
        for page in [nowhere, put, noFile] {
            #expect(page.status == 404)
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            #expect(page.header("Content-Security-Policy") == Answers.contentSecurityPolicy)
            #expect(page.text.contains("找不到页面"))
            #expect(page.text.contains(#"lang="zh-Hans""#))
        }
        #expect(plain.status == 404)
        #expect(plain.header("Content-Type") == "text/plain; charset=utf-8")
        // The answer depends on Accept, so none of the three may be stored and replayed to another client.
        for answer in [nowhere, put, plain] { #expect(answer.header("Cache-Control") == "no-store") }
        #expect(plain.text.contains("no resource at /forms/nosuchform"))
    }

    @Test func tenMegabyteFieldIsRefusedBeforeItIsRead() async throws {
        let response = try await withFormServer { port in
            let connection = try RawConnection(port: port)
            try connection.send(
                "POST /forms/event HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10485760\r\n\r\n"
            )
            return try connection.readResponse()
        }
        #expect(response.status == 413)
    }

    /// Switched off, the explanation is a 404 for every method (no `Allow` offers a POST that would be
    /// refused), and a post is told how to switch it on.
    @Test func explainIsOffUnlessEnabled() async throws {
        let (off, get) = try await withFormServer { port in
            (
                try postJSON(port, "event", "{}", path: "/forms/event/explain"),
                try request(port, "/forms/event/explain", headers: ["Accept": "application/json"])
            )
        }
        #expect(off.status == 404)
        #expect(off.text.contains("explanations are off (serve --explain)"))
        #expect(get.status == 404)
        #expect(get.header("Allow") == nil)
        let on = try await withFormServer(explain: true) { port in
            try postJSON(port, "event", #"{"alert":"never"}"#, path: "/forms/event/explain")
        }
        #expect(on.status == 200)
        #expect(on.text.contains(#""predicate":"$alert == 'never'","read":{"alert.value":"never"},"result":true"#))
        #expect(on.text.contains(#""valid":false"#))
    }

    @Test func swiftHandlerReceivesTheValidPayload() async throws {
        var hooks = exampleHooks()
        hooks.handle("event") { submission in
            .text(.created, "stored \(submission.httpParameters["title"].map { $0.text } ?? "")")
        }
        let response = try await withFormServer(hooks: hooks) { port in try postJSON(port, "event", validEventJSON) }
        #expect(response.status == 201)
        #expect(response.text == #"stored "Team lunch""#)
    }

    @Test func anAsyncHandlerAnswersOnlyValidSubmissions() async throws {
        let calls = Mutex(0)
        var hooks = exampleHooks()
        hooks.handle(
            "event",
            async: { submission in
                await Task.yield()
                calls.withLock { $0 += 1 }
                return .text(.created, "stored \(submission.httpParameters["title"].map { $0.text } ?? "")")
            })
        let (valid, invalid) = try await withFormServer(hooks: hooks) { port in
            (try postJSON(port, "event", validEventJSON), try postJSON(port, "event", "{}"))
        }
        #expect(valid.status == 201)
        #expect(valid.text == #"stored "Team lunch""#)
        #expect(invalid.status == 422)
        #expect(calls.withLock { $0 } == 1)
    }

    @Test func unregisteredCustomValidatorStopsTheServerAtStart() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fw-custom-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "sections: [{rows: [{tag: code, type: text, validators: [{kind: custom, name: invitationCode}]}]}]"
            .write(to: folder.appendingPathComponent("signup.yaml"), atomically: true, encoding: .utf8)
        await #expect {
            try await withFormApp(hooks: FormHooks(), forms: folder.path) { _, _ in () }
        } throws: { error in
            "\(error)".contains(
                "form 'signup', sections[0].rows[0].validators[0]: calls the custom validator 'invitationCode'")
        }
    }

    /// `hooks.validator` and a Swift form's own closure under one name: one of them would be dropped.
    @Test func aValidatorRegisteredTwiceStopsTheServerAtStart() async throws {
        var hooks = exampleHooks()
        let form = FormDefinition("other") {
            SectionDefinition {
                RowDefinition(.text, "code", title: "Code").validate("invitationCode") { _ in "never this one" }
            }
        }
        hooks.register(form)
        await #expect {
            try await withFormServer(hooks: hooks) { _ in () }
        } throws: { error in
            "\(error)".contains("the custom validator 'invitationCode' is registered twice")
        }
    }

    /// A form written in Swift is served beside the folder's, its closures with it.
    @Test func aFormWrittenInSwiftIsServed() async throws {
        var hooks = exampleHooks()
        hooks.serve(
            FormDefinition("signup", title: "Sign up") {
                SectionDefinition {
                    RowDefinition(.text, "nickname", title: "Nickname").required()
                        .validate("notAdmin") { $0.description == "admin" ? "That name is reserved" : nil }
                }
            })
        let (index, page, valid, refused) = try await withFormServer(hooks: hooks) { port in
            (
                try request(port, "/forms"), try request(port, "/forms/signup"),
                try postJSON(port, "signup", #"{"nickname":"ada"}"#),
                try postJSON(port, "signup", #"{"nickname":"admin"}"#)
            )
        }
        #expect(index.text.contains(#"href="/forms/signup""#))
        #expect(page.status == 200)
        #expect(page.text.contains("<h1>Sign up</h1>"))
        #expect(valid.status == 200)
        #expect(valid.text.contains(#""httpParameters":{"nickname":"ada"}"#))
        #expect(refused.status == 422)
        #expect(refused.text.contains("That name is reserved"))
    }

    @Test func aSwiftFormWithAnIdTheFolderUsesStopsTheServerAtStart() async throws {
        var hooks = exampleHooks()
        hooks.serve(FormDefinition("event") { SectionDefinition { RowDefinition(.text, "title", title: "Title") } })
        await #expect {
            try await withFormServer(hooks: hooks) { _ in () }
        } throws: { error in
            "\(error)".contains("FormRoutesTests.swift: id: the form id 'event' is already used by another form served")
        }
    }

    @Test func optionProviderReplacesOptionsAtStart() async throws {
        var hooks = exampleHooks()
        hooks.options(form: "event", row: "repeat") {
            [Option("never", title: "Never"), Option("hourly", title: "Hourly")]
        }
        let (hourly, daily) = try await withFormServer(hooks: hooks) { port in
            (
                try postJSON(
                    port, "event",
                    #"{"title":"a","starts":"2026-01-01T10:00","ends":"2026-01-01T11:00","repeat":"hourly"}"#),
                try postJSON(
                    port, "event",
                    #"{"title":"a","starts":"2026-01-01T10:00","ends":"2026-01-01T11:00","repeat":"daily"}"#)
            )
        }
        #expect(hourly.status == 200)
        #expect(daily.status == 422)
        #expect(daily.text.contains("unknownOption"))
    }

    @Test func reloadedOptionsAreServedAndJudgedAtOnce() async throws {
        let offered = Mutex([Option("never", title: "Never"), Option("hourly", title: "Hourly")])
        var hooks = exampleHooks()
        hooks.options(form: "event", row: "repeat") { offered.withLock { $0 } }
        let post: @Sendable (Int, String) throws -> TestResponse = { port, choice in
            try postJSON(
                port, "event",
                #"{"title":"a","starts":"2026-01-01T10:00","ends":"2026-01-01T11:00","repeat":"\#(choice)"}"#)
        }
        let answers = try await withFormApp(hooks: hooks) { app, port in
            let before = (try post(port, "weekly").status, try request(port, "/forms/event").text)
            offered.withLock { $0.append(Option("weekly", title: "Every week")) }
            // The provider's new answer is not served until the app is told to reload it.
            let unreloaded = try post(port, "weekly").status
            try app.reloadOptions(of: "event")
            let after = (try post(port, "weekly").status, try request(port, "/forms/event/").text)
            // Options that no longer fit the form (its default, `never`, gone) are refused; the old stay.
            offered.withLock { $0 = [Option("monthly")] }
            let refused = (try? app.reloadOptions()) == nil
            return (before, unreloaded, after, refused, try post(port, "weekly").status)
        }
        #expect(answers.0.0 == 422)
        #expect(!answers.0.1.contains("Every week"))
        #expect(answers.1 == 422)
        #expect(answers.2.0 == 200)
        #expect(answers.2.1.contains("Every week"))
        #expect(answers.3)
        #expect(answers.4 == 200)
    }

    @Test func onlyAFormWithProvidersReloadsItsOptions() async throws {
        let message = try await withFormApp { app, _ in
            do {
                try app.reloadOptions(of: "pets")
                return "reloaded"
            } catch {
                return "\(error)"
            }
        }
        #expect(message.contains("no options are provided for this form"))
    }

    @Test func addAnotherRerendersWithOneMoreItem() async throws {
        let page = try await withFormServer { port in
            let session = try BrowserSession(port: port, form: "multivalued")
            return try session.post("multivalued", [("tags", "swift"), ("tags", "forms"), ("_add", "tags")])
        }
        #expect(page.status == 200)
        // The items shown; the pristine one in the <template> is no part of the form.
        let shown = page.text.replacing(/<template[\s\S]*?<\/template>/, with: "")
        #expect(shown.components(separatedBy: "name=\"tags\"").count - 1 == 3)
        #expect(page.text.contains("value=\"forms\""))
    }

    /// With no script, "Add another" is a round trip: the page comes back with focus on the new item,
    /// where a keyboard user carries on, not at the top of the page. One autofocus on the page.
    @Test func addAnotherPutsFocusOnTheNewItem() async throws {
        let page = try await withFormServer { port in
            let session = try BrowserSession(port: port, form: "multivalued")
            return try session.post("multivalued", [("tags", "swift"), ("tags", "forms"), ("_add", "tags")])
        }
        #expect(page.status == 200)
        #expect(page.text.components(separatedBy: "autofocus").count - 1 == 1)
        #expect(page.text.contains(#"<input type="text" id="fw-tags-2" name="tags" autofocus"#))
    }

    /// At the cap no item is added: focus goes to the section (named by its legend) instead.
    @Test func addAnotherAtTheCapFocusesTheSection() async throws {
        let page = try await withFormServer { port in
            let session = try BrowserSession(port: port, form: "multivalued")
            return try session.post("multivalued", (0..<10).map { ("tags", "t\($0)") } + [("_add", "tags")])
        }
        #expect(page.status == 200)
        // The items shown; the pristine one in the <template> is no part of the form.
        let shown = page.text.replacing(/<template[\s\S]*?<\/template>/, with: "")
        #expect(shown.components(separatedBy: "name=\"tags\"").count - 1 == 10)
        #expect(page.text.components(separatedBy: "autofocus").count - 1 == 1)
        #expect(
            page.text.contains(
                try Regex(#"<fieldset class="fw-section"[^>]*data-fw-multivalued="tags"[^>]* tabindex="-1" autofocus>"#)
            ))
    }

    @Test func multipartPostWithAFile() async throws {
        let response = try await withFormServer { port in
            let session = try BrowserSession(port: port, form: "others")
            return try session.postPhoto(filename: #"C:\\pics\\me.png"#, bytes: pngSignature + Array("PNGDATA".utf8))
        }
        #expect(response.status == 200)
        #expect(response.text.contains(#""photo":"me.png""#))
        #expect(response.text.contains(#""photo":{"filename":"me.png","contentType":"image/png","size":15}"#))
    }

    @Test func anUploadIsCheckedAgainstTheRowsAcceptOnTheServer() async throws {
        // The others form's photo row accepts image/png and image/jpeg.
        let answers = try await withFormServer { port in
            let session = try BrowserSession(port: port, form: "others")
            let files: [(name: String, type: String, bytes: [UInt8])] = [
                ("page.html", "text/html", Array("<script>alert(1)</script>".utf8)),
                ("page.png", "image/png", Array("<script>alert(1)</script>".utf8)),
                ("me.jpg", "image/jpeg", [0xFF, 0xD8, 0xFF, 0xE0, 1, 2]),
            ]
            return try files.map { file in
                let boundary = "fw"
                let head =
                    "--\(boundary)\r\nContent-Disposition: form-data; name=\"_csrf\"\r\n\r\n\(session.token)\r\n"
                    + "--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"\(file.name)\"\r\n"
                    + "Content-Type: \(file.type)\r\n\r\n"
                return try request(
                    port, "POST", "/forms/others",
                    headers: [
                        "Content-Type": "multipart/form-data; boundary=\(boundary)", "Cookie": session.cookie,
                        "Accept": "application/json",
                    ], bytes: Array(head.utf8) + file.bytes + Array("\r\n--\(boundary)--\r\n".utf8))
            }
        }
        #expect(answers[0].status == 422)
        #expect(answers[0].text.contains(#""code":"fileType""#))
        #expect(answers[0].text.contains("image/png, image/jpeg"))
        #expect(answers[1].status == 422)
        #expect(answers[1].text.contains(#""code":"fileContent""#))
        #expect(answers[2].status == 200)
        #expect(answers[2].text.contains(#""photo":"me.jpg""#))
    }
}

@Suite struct UploadLimitTests {
    /// A file over `--max-file` in a body the server can read is its row's error, not a refusal of the
    /// whole post: a browser gets the page again with everything else it typed, and the message beside
    /// the upload; an API client gets the same error in JSON.
    @Test func aFileOverTheUploadLimitIsItsRowsErrorAndTheRestIsKept() async throws {
        let (page, json) = try await withFormServer(maxFile: 2048) { port in
            let session = try BrowserSession(port: port, form: "others")
            let boundary = "fw"
            var body = ""
            for (name, value) in [("_csrf", session.token), ("count", "3"), ("volume", "35")] {
                body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
            }
            body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"big.png\"\r\n"
            body += "Content-Type: image/png\r\n\r\n"
            let bytes =
                Array(body.utf8) + pngSignature + Array(repeating: 0x78, count: 2041)
                + Array("\r\n--\(boundary)--\r\n".utf8)
            let headers = ["Content-Type": "multipart/form-data; boundary=\(boundary)", "Cookie": session.cookie]
            return (
                try request(
                    port, "POST", "/forms/others", headers: headers.merging(["Accept": "text/html"]) { $1 },
                    bytes: bytes),
                try session.postPhoto(filename: "big.png", bytes: pngSignature + Array(repeating: 0x78, count: 2041))
            )
        }
        #expect(page.status == 422)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.text.contains("Photo must be a file of at most 2 KB"))
        // The other values come back as typed.
        #expect(page.text.contains(#"value="3""#))
        #expect(page.text.contains(#"value="35""#))
        #expect(json.status == 422)
        #expect(
            json.text.contains(
                #"{"tag":"photo","message":"Photo must be a file of at most 2 KB","code":"fileTooLarge"}"#))
    }

    /// Without an upload row in any form, a file limit over what the body leaves limits nothing: the
    /// start does not warn of it.
    @Test func aFileLimitOverTheBodyLimitIsNotWarnedOfWithoutUploadRows() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fw-no-upload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "sections:\n  - rows:\n      - { tag: name, type: text }\n".write(
            to: folder.appendingPathComponent("plain.yaml"), atomically: true, encoding: .utf8)
        let log = try LineLogHandlerTests.PipeLog()
        let logged = try await withFormApp(
            maxBody: 8192, maxFile: 1 << 20, forms: folder.path, logger: log.logger("formwright")
        ) { _, _ in
            log.sink.flush()  // the info lines; a warning would have been written at once
            return log.read()
        }
        #expect(logged.contains { $0.contains("forms loaded") })
        #expect(!logged.contains { $0.contains("--max-file") })
    }

    /// No file is larger than the body that brings it with the rest of its form: with `--max-file` over
    /// what `--max-body` leaves (an eighth of a small body is kept for the framing and other fields), the
    /// page names what is left, a post is judged by it, and the start says so. A file of that size then
    /// arrives, where a page promising the whole body's size would lead to a 413.
    @Test func aFileLimitOverTheBodyLimitIsWhatTheBodyLeaves() async throws {
        let log = try LineLogHandlerTests.PipeLog()
        let (page, fits, logged) = try await withFormApp(
            maxBody: 8192, maxFile: 1 << 20, logger: log.logger("formwright")
        ) { _, port in
            (
                try request(port, "/forms/others"),
                try BrowserSession(port: port, form: "others").postPhoto(
                    filename: "fits.png", bytes: pngSignature + Array(repeating: 0x78, count: 7168 - 8)),
                log.read()
            )
        }
        #expect(page.text.contains(#"data-fw-max-bytes="7168""#))
        #expect(page.text.contains("Photo must be a file of at most 7 KB"))
        #expect(fits.status == 200)
        #expect(
            logged.contains {
                $0.contains("warning") && $0.contains("does not fit in the largest body")
                    && $0.contains("upload-limit=7168")
            })
    }

    /// With the defaults (`--max-file 1m`, no `--max-body`), a photo of exactly the promised 1 MB arrives
    /// with the rest of the form: the body limit grows at start to carry each upload row's file and 1 MiB
    /// more, and the start says so: with both limits at 1 MiB such a post would be a 413.
    @Test func theDefaultBodyLimitCarriesTheFilesThePagePromises() async throws {
        let log = try LineLogHandlerTests.PipeLog()
        let (limit, page, response) = try await withFormApp(logger: log.logger("formwright")) { app, port in
            (
                app.server.configuration.maxBodySize, try request(port, "/forms/others"),
                try BrowserSession(port: port, form: "others").postPhoto(
                    filename: "full.png", bytes: pngSignature + Array(repeating: 0x78, count: (1 << 20) - 8))
            )
        }
        // An `info` line waits in the sink's batch (warnings go at once).
        log.sink.flush()
        let logged = log.read()
        // The example forms have one upload row (others' photo).
        #expect(limit == 2 << 20)
        #expect(page.text.contains(#"data-fw-max-bytes="1048576""#))
        #expect(response.status == 200)
        #expect(response.text.contains(#""photo":"full.png""#))
        #expect(
            logged.contains {
                $0.contains("info") && $0.contains("the largest body is raised") && $0.contains("max-body=2097152")
                    && $0.contains("forms=others")
            })
    }

    /// Raised past 64 MiB (bodies are held in memory), the body limit is a warning at start, not news.
    @Test func aBodyLimitRaisedPastSixtyFourMiBIsAWarning() async throws {
        let log = try LineLogHandlerTests.PipeLog()
        let limit = try await withFormApp(maxFile: 100 << 20, logger: log.logger("formwright")) { app, _ in
            app.server.configuration.maxBodySize
        }
        #expect(limit == 101 << 20)
        #expect(
            log.read().contains {
                $0.contains("warning") && $0.contains("the largest body is raised") && $0.contains("max-body=105906176")
            })
    }

    /// A `--max-body` given stands even where a form's files would not fit, and the start names those forms.
    @Test func aGivenBodyLimitTooSmallForAFormsFilesStandsWithAWarning() async throws {
        let log = try LineLogHandlerTests.PipeLog()
        let (limit, logged) = try await withFormApp(maxBody: 1 << 20, logger: log.logger("formwright")) { app, _ in
            (app.server.configuration.maxBodySize, log.read())
        }
        #expect(limit == 1 << 20)
        #expect(
            logged.contains {
                $0.contains("warning") && $0.contains("cannot carry every file of these forms")
                    && $0.contains("forms=others")
            })
    }

    /// A file of exactly the limit is accepted: the limit is the largest size, not the first refused.
    @Test func aFileOfExactlyTheLimitIsAccepted() async throws {
        let response = try await withFormServer(maxFile: 2048) { port in
            try BrowserSession(port: port, form: "others").postPhoto(
                filename: "fits.png", bytes: pngSignature + Array(repeating: 0x78, count: 2040))
        }
        #expect(response.status == 200)
        #expect(response.text.contains(#""photo":"fits.png""#))
    }

    /// A browser whose post is over `--max-body` (files too large to send) reads a page in its language
    /// that says so and names the limit.
    @Test func aBrowserPostOverTheBodyLimitReadsAPageThatSaysSo() async throws {
        let response = try await withFormServer(maxBody: 4096) { port in
            try request(
                port, "POST", "/forms/event",
                headers: [
                    "Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html,*/*;q=0.8",
                    "Accept-Language": "zh-CN",
                ],
                body: "title=" + String(repeating: "x", count: 5000))
        }
        #expect(response.status == 413)
        #expect(response.header("Content-Type") == "text/html; charset=utf-8")
        #expect(response.header("Cache-Control") == "no-store")
        #expect(response.text.contains("内容过大，无法提交"))
        #expect(response.text.contains("最多 4 KB"))
    }

    @Test func theServersOwnErrorsAreJSONForAnAPIClientAndTextForOthers() async throws {
        let (json, browser, missing, missingJSON) = try await withFormServer(maxBody: 1024) { port in
            let big = #"{"title":""# + String(repeating: "x", count: 2000) + #""}"#
            return (
                try postJSON(port, "event", big),
                try request(
                    port, "POST", "/forms/event", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                    body: "title=" + String(repeating: "x", count: 2000)),
                try request(port, "/nowhere"),
                try request(port, "/nowhere", headers: ["Accept": "application/json"])
            )
        }
        // Refused before the form routes run (the body is over --max-body), yet worded as they word theirs.
        #expect(json.status == 413)
        #expect(json.header("Content-Type") == "application/json")
        #expect(json.text.contains(#""code":"body""#))
        #expect(json.text.contains("over the limit of 1024 bytes"))
        #expect(browser.status == 413)
        #expect(browser.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(browser.text.contains("over the limit of 1024 bytes"))
        #expect(missing.status == 404 && missing.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(missingJSON.status == 404 && missingJSON.text.contains(#""code":"notFound""#))
    }

    /// A request line and header fields over the limit (30 KiB by default) are refused with 431 in the
    /// client's terms, a page for a browser and JSON for an API client, up to the largest block the
    /// pool leaves an ordinary answer room for; the page's own answer fits at the limit itself.
    @Test func aHeaderBlockOverTheLimitIsRefusedInTheClientsTerms() async throws {
        let limit = ServerConfiguration().maxHeaderSize
        // The largest block refused in the client's terms: half the room kept for the answer is left.
        let largest = limit + ServerConfiguration.answerHeaderRoom / 2
        let answers = try await withFormServer { port in
            try [("text/html", limit), ("text/html", limit + 1), ("application/json", largest), ("text/html", largest)]
                .map { accept, size in
                    let head = "GET /forms/event HTTP/1.1\r\nHost: x\r\nAccept: \(accept)\r\nX-Padding: "
                    let connection = try RawConnection(port: port)
                    try connection.send(head + String(repeating: "c", count: size - head.utf8.count - 4) + "\r\n\r\n")
                    return try connection.readResponse()
                }
        }
        #expect(answers[0].status == 200 && answers[0].text.contains("<form"))
        #expect(answers[1].status == 431)
        #expect(answers[1].header("Content-Type") == "text/html; charset=utf-8")
        #expect(answers[1].text.contains("\(limit + 1) bytes, more than the \(limit) this server reads"))
        #expect(answers[2].status == 431 && answers[2].text.contains(#""code":"headerTooLarge""#))
        #expect(answers[3].status == 431 && answers[3].text.contains("\(largest) bytes, more than the \(limit)"))
        #expect(answers[3].header("Content-Type") == "text/html; charset=utf-8")
    }

    /// A browser refused by the server itself (a method the address does not take, a malformed address)
    /// reads a page in its language with the server's reason beneath, in English and marked so; a 405
    /// keeps its `Allow`, and a HEAD's is as long as its GET's. Other clients still get plain text.
    @Test func theServersOwnRefusalsAreAPageForABrowser() async throws {
        let html = ["Accept": "text/html,application/xhtml+xml,*/*;q=0.8"]
        let (wrongMethod, get, head, malformed, plain) = try await withFormServer(explain: true) { port in
            (
                try request(port, "PUT", "/forms", headers: html),
                try request(port, "GET", "/forms/event/explain", headers: html),
                try request(port, "HEAD", "/forms/event/explain", headers: html),
                try request(port, "/forms/%zz", headers: html.merging(["Accept-Language": "zh-CN"]) { $1 }),
                try request(port, "PUT", "/forms")
            )
        }
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("Content-Type") == "text/html; charset=utf-8")
        #expect(wrongMethod.header("Allow") == "GET, HEAD, OPTIONS")
        #expect(wrongMethod.text.contains("<h1>Request not accepted</h1>"))
        #expect(wrongMethod.text.contains(#"<p class="fw-detail">PUT is not allowed at /forms: it takes GET"#))
        #expect(get.status == 405 && head.status == 405)
        #expect(head.header("Content-Length") == get.header("Content-Length"))
        #expect(get.text.contains("GET is not allowed at /forms/event/explain: it takes POST"))
        #expect(malformed.status == 400)
        #expect(malformed.text.contains(#"<html lang="zh-Hans""#))
        #expect(malformed.text.contains("请求未被接受"))
        #expect(malformed.text.contains(#"<p class="fw-detail" lang="en">"#))
        #expect(plain.status == 405 && plain.header("Content-Type") == "text/plain; charset=utf-8")
    }

    /// A form's own refusal of a post it cannot read is a page for a browser too: a body of another kind
    /// (415), or a post to a read-only form (403); JSON for an API client, as before.
    @Test func aFormsRefusalOfABodyIsAPageForABrowser() async throws {
        let (page, json) = try await withFormServer { port in
            (
                try request(
                    port, "POST", "/forms/event",
                    headers: ["Content-Type": "text/plain", "Accept": "text/html"], body: "title=x"),
                try request(
                    port, "POST", "/forms/event",
                    headers: ["Content-Type": "text/plain", "Accept": "application/json"], body: "title=x")
            )
        }
        #expect(page.status == 415)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.text.contains("<h1>Request not accepted</h1>"))
        #expect(page.text.contains("text/plain"))
        #expect(json.status == 415 && json.text.contains(#""code":"body""#))
    }
}

/// The eight bytes every PNG file begins with.
let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

extension BrowserSession {
    /// The same session with another cookie.
    init(copying session: BrowserSession, cookie: String) {
        self.init(port: session.port, cookie: cookie, token: session.token)
    }

    init(port: Int, cookie: String, token: String) {
        self.port = port
        self.cookie = cookie
        self.token = token
    }
}

/// The French example form: its readers' languages, end to end.
@Suite struct FormLanguageTests {
    @Test func aFrenchReaderGetsTheFormsOwnTexts() async throws {
        let (page, refused, thanks) = try await withFormServer { port in
            let page = try request(port, "/forms/inscription", headers: ["Accept-Language": "fr-CA,fr;q=0.9"])
            let refused = try postJSON(port, "inscription", "{}", headers: ["Accept-Language": "fr-FR"])
            let thanks = try request(port, "/forms/inscription/thanks", headers: ["Accept-Language": "fr"])
            return (page, refused, thanks)
        }
        #expect(page.status == 200)
        #expect(page.text.contains(#"<html lang="fr">"#))
        #expect(page.text.contains(#"title="obligatoire""#))
        #expect(!page.text.contains(#" lang="en""#))
        #expect(refused.status == 422)
        #expect(refused.text.contains("Nom est obligatoire"))
        #expect(thanks.text.contains(#"<html lang="fr">"#) && thanks.text.contains("Merci"))
    }

    @Test func anEnglishReaderGetsEnglishTextsMarkedAsEnglish() async throws {
        let (page, refused) = try await withFormServer { port in
            let page = try request(port, "/forms/inscription", headers: ["Accept-Language": "en-GB"])
            let session = try BrowserSession(port: port, form: "inscription")
            let refused = try session.post("inscription", [("nom", "")], extraHeaders: ["Accept-Language": "en-GB"])
            return (page, refused)
        }
        #expect(page.text.contains(#"<html lang="fr">"#))
        #expect(page.text.contains(#"title="required" lang="en""#))
        #expect(refused.status == 422)
        #expect(refused.text.contains(#"<span lang="en">Nom can't be empty</span>"#))
    }

    @Test func aReaderAskingForNothingGetsTheFormsLocale() async throws {
        let refused = try await withFormServer { port in try postJSON(port, "inscription", #"{"places": 9}"#) }
        #expect(refused.text.contains("Places doit être au plus 4"))
    }
}
