import FormStore
import Foundation
import HTTPTestClient
import TestProcesses
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension CommandSuites {
    /// `deliver` end to end: `formwright serve` sending to a real webhook receiver and a real SMTP server
    /// on loopback (`DeliverySupport`), on SQLite and PostgreSQL.
    @Suite struct DeliveryTests {
        /// `serve` for the contact forms in `forms`, with `store`, the webhook secret and `extra` flags.
        static func serve(
            forms: URL, store: String, _ extra: [String] = [], secret: String? = hookSecret
        ) throws -> (process: FormwrightProcess, port: Int) {
            let process = try FormwrightProcess(
                ["serve", "--port", "0", "--forms", forms.path, "--store", store] + extra,
                environment: secret.map { ["CONTACT_HOOK_SECRET": $0] } ?? [:])
            let port = try #require(process.listeningPort(), "\(process.text)")
            return (process, port)
        }

        /// The id a post's answer names.
        static func keptID(_ answer: String) -> String? {
            answer.firstMatch(of: /\{"id":"([0-9A-Z]{26})"/).map { String($0.1) }
        }

        /// Each submission brings a webhook, a notification and a confirmation, written with it and sent at
        /// once: the webhook signed (the receiver's own check passes), its id stable, its body the kept
        /// payloads (a hashed row as its hash); the e-mails listing the rows by their titles, escaped in
        /// HTML, the confirmation to the address typed; the API's log says each was delivered at once.
        @Test(arguments: ["sqlite", "postgres"])
        func submissionsAreDeliveredSignedAndMailed(_ backend: String) async throws {
            try await offPool {
                let store = try TestStore(backend)
                defer { store.remove() }
                let receiver = try WebhookReceiver()
                let mail = try MailSink()
                let forms = try contactForms(webhook: receiver.url, mail: true)
                defer { try? FileManager.default.removeItem(at: forms) }
                let (server, port) = try Self.serve(
                    forms: forms, store: store.location,
                    ["--smtp", "smtp://127.0.0.1:\(mail.port)", "--mail-from", "forms@example.org"])
                var ids: [String] = []
                for number in 0..<3 {
                    let answer = try exchange(port: port, contactPost(number, name: "<b>Ada</b> \(number)", pin: true))
                    ids.append(try #require(Self.keptID(answer), "\(answer)"))
                }
                #expect(
                    try eventually(seconds: 20) { try receiver.received().count >= 3 && mail.messages().count >= 6 })
                let hooks = try receiver.received()
                #expect(hooks.count == 3, "\(server.text)")
                #expect(hooks.allSatisfy { $0["verified"] as? Bool == true })
                #expect(Set(hooks.compactMap { $0["id"] as? String }) == Set(ids.map { "msg_\($0)_1_0" }))
                #expect(hooks.allSatisfy { $0["contentType"] as? String == "application/json" })
                for hook in hooks {
                    let body = try #require(
                        try JSONSerialization.jsonObject(with: Data((hook["body"] as? String ?? "").utf8))
                            as? [String: Any])
                    #expect(body["type"] as? String == "submission.created")
                    let data = try #require(body["data"] as? [String: Any])
                    #expect(data["formId"] as? String == "contact")
                    #expect(ids.contains(data["submissionId"] as? String ?? ""))
                    let parameters = try #require(data["httpParameters"] as? [String: Any])
                    #expect((parameters["name"] as? String)?.hasPrefix("<b>Ada</b>") == true)
                    #expect((parameters["pin"] as? String)?.hasPrefix("$scrypt$") == true)
                }

                let messages = mail.messages()
                #expect(messages.count == 6)
                let team = messages.filter { $0.headers["X-RcptTo"] == "team@example.org" }
                #expect(team.count == 3)
                #expect(team.allSatisfy { $0.headers["Subject"] == "New answers to Contact us" })
                let confirmations = messages.filter { $0.headers["X-RcptTo"]?.hasPrefix("ada") == true }
                #expect(
                    Set(confirmations.compactMap { $0.headers["X-RcptTo"] })
                        == Set((0..<3).map { "ada\($0)@example.org" }))
                #expect(confirmations.allSatisfy { $0.headers["Subject"] == "Your answers to Contact us" })
                for message in messages {
                    #expect(message.headers["From"] == "forms@example.org")
                    #expect(message.text.contains("Your name: <b>Ada</b> "))
                    #expect(message.text.contains("Message: line one\nline two"))
                    #expect(message.html.contains("&lt;b&gt;Ada&lt;/b&gt;"))
                    #expect(!message.html.contains("<b>Ada"))
                    // The PIN is kept hashed: a message leaves it out.
                    #expect(!message.text.contains("PIN") && !message.text.contains("1234"))
                }

                let key = try Self.key(store.location, scopes: "read")
                let log = try request(
                    port, "/api/forms/contact/submissions/\(ids[0])/deliveries",
                    headers: ["Authorization": "Bearer \(key)"])
                #expect(log.status == 200)
                let jobs = try #require(
                    (try JSONSerialization.jsonObject(with: Data(log.body)) as? [String: Any])?["deliveries"]
                        as? [[String: Any]])
                #expect(jobs.map { $0["kind"] as? String } == ["webhook", "email", "email"])
                #expect(jobs.allSatisfy { $0["state"] as? String == "delivered" && $0["attempts"] as? Int == 1 })
                let statuses = jobs.compactMap { ($0["log"] as? [[String: Any]])?.first?["status"] as? Int }
                #expect(statuses == [200, 250, 250])
                let ready = try request(port, "/readyz")
                #expect(ready.text == #"{"status":"ok","deliveries":{}}"#)
            }
        }

        /// A receiver that fails: each attempt logged with its answer, retried with backoff, then failed
        /// for good and listed as failed; sent again on demand (the API, then the command line), the same
        /// `webhook-id` arrives and is delivered.
        @Test func aFailingReceiverIsRetriedThenFailedThenSentAgain() async throws {
            try await offPool {
                let store = try TestStore("sqlite")
                defer { store.remove() }
                let receiver = try WebhookReceiver()
                try receiver.answer("fail")
                let forms = try contactForms(webhook: receiver.url, mail: false)
                defer { try? FileManager.default.removeItem(at: forms) }
                let (server, port) = try Self.serve(
                    forms: forms, store: store.location, ["--delivery-attempts", "3", "--delivery-backoff", "0.2"])
                let id = try #require(Self.keptID(try exchange(port: port, contactPost(1))))
                let key = try Self.key(store.location, scopes: "read,deliver")
                let auth = ["Authorization": "Bearer \(key)"]
                let failed = { () throws -> [[String: Any]] in
                    let answer = try request(port, "/api/forms/contact/deliveries?state=failed", headers: auth)
                    return (try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])?["deliveries"]
                        as? [[String: Any]] ?? []
                }
                #expect(try eventually(seconds: 15) { try failed().count == 1 }, "\(server.text)")
                let job = try #require(try failed().first)
                #expect(job["id"] as? String == "msg_\(id)_1_0")
                #expect(job["attempts"] as? Int == 3)
                #expect(try receiver.received().count == 3)
                #expect(server.text.contains("delivery failed for good"))
                let ready = try request(port, "/readyz")
                #expect(ready.text == #"{"status":"ok","deliveries":{"contact":{"pending":0,"failed":1}}}"#)
                let log = try request(port, "/api/forms/contact/submissions/\(id)/deliveries", headers: auth)
                #expect(log.text.components(separatedBy: #""error":"HTTP 500: failing on purpose""#).count == 4)

                try receiver.answer("ok")
                let retried = try request(
                    port, "POST", "/api/forms/contact/deliveries/msg_\(id)_1_0/retry", headers: auth, body: "")
                #expect(retried.status == 202)
                #expect(try eventually(seconds: 10) { try failed().isEmpty && receiver.received().count == 4 })
                #expect(Set(try receiver.received().compactMap { $0["id"] as? String }) == ["msg_\(id)_1_0"])
                #expect(
                    try request(port, "POST", "/api/forms/contact/deliveries/nope/retry", headers: auth, body: "")
                        .status == 404)
                let reader = try Self.key(store.location, scopes: "read")
                #expect(
                    try request(
                        port, "POST", "/api/forms/contact/deliveries/msg_\(id)_1_0/retry",
                        headers: ["Authorization": "Bearer \(reader)"], body: ""
                    ).status == 403)

                // From the command line: listed, then sent again.
                try receiver.answer("fail")
                let second = try #require(Self.keptID(try exchange(port: port, contactPost(2))))
                #expect(try eventually(seconds: 15) { try failed().count == 1 })
                let listed = try runFormwright(
                    ["deliveries", "list", "--form", "contact", "--state", "failed", "--store", store.location],
                    input: "")
                #expect(listed.status == 0, "\(listed.errors)")
                #expect(listed.output.hasPrefix("msg_\(second)_1_0 failed 3 "), "\(listed.output)")
                try receiver.answer("ok")
                let again = try runFormwright(
                    ["deliveries", "retry", "--form", "contact", "msg_\(second)_1_0", "--store", store.location],
                    input: "")
                #expect(again.status == 0, "\(again.errors)")
                #expect(try eventually(seconds: 10) { try failed().isEmpty })
            }
        }

        /// Receivers that answer a redirect, ten megabytes, or nothing for 15 s: each a failed attempt,
        /// bounded in time (10 s) and memory (the answer is cut at 64 KiB), with the reason in the log.
        @Test func redirectsHugeAnswersAndSilenceAreFailedAttempts() async throws {
            try await offPool {
                let store = try TestStore("sqlite")
                defer { store.remove() }
                let receiver = try WebhookReceiver()
                let forms = try contactForms(webhook: receiver.url, mail: false)
                defer { try? FileManager.default.removeItem(at: forms) }
                let (server, port) = try Self.serve(forms: forms, store: store.location, ["--delivery-attempts", "1"])
                let key = try Self.key(store.location, scopes: "read")
                for (mode, reason) in [
                    ("redirect", "HTTP 302"), ("big", "the answer was larger than 64 KiB"), ("slow", "imed out"),
                ] {
                    try receiver.answer(mode)
                    let started = Date()
                    let id = try #require(Self.keptID(try exchange(port: port, contactPost(1))))
                    let log = { () throws -> String in
                        try request(
                            port, "/api/forms/contact/submissions/\(id)/deliveries",
                            headers: ["Authorization": "Bearer \(key)"]
                        ).text
                    }
                    #expect(try eventually(seconds: 20) { try log().contains(#""state":"failed""#) }, "\(mode)")
                    let text = try log()
                    #expect(text.contains(reason), "\(mode): \(text)")
                    #expect(Date().timeIntervalSince(started) < 14, "\(mode)")
                }
                #expect(try receiver.received().count == 3, "\(server.text)")
            }
        }

        /// What deliveries need is checked before the server listens, the form and the setting named: a
        /// secret that is not set or is no secret, e-mail without an SMTP server, no database.
        @Test func deliveriesThatCannotBeMadeStopTheServer() async throws {
            try await offPool {
                let store = try TestStore("sqlite")
                defer { store.remove() }
                let forms = try contactForms(webhook: "http://127.0.0.1:9/hooks", mail: true)
                defer { try? FileManager.default.removeItem(at: forms) }
                let cases: [([String], String?, String)] = [
                    (
                        ["--smtp", "smtp://127.0.0.1:25", "--mail-from", "f@example.org"], nil,
                        "form 'contact', deliver[0].secretEnv: the environment variable CONTACT_HOOK_SECRET is not set"
                    ),
                    (
                        ["--smtp", "smtp://127.0.0.1:25", "--mail-from", "f@example.org"], "secret",
                        "form 'contact', deliver[0].secretEnv: CONTACT_HOOK_SECRET is not a signing secret"
                    ),
                    ([], hookSecret, "form 'contact', deliver[1]: e-mail needs an SMTP server"),
                    (
                        ["--smtp", "ftp://127.0.0.1", "--mail-from", "f@example.org"], hookSecret,
                        "--smtp: expected smtp://"
                    ),
                ]
                for (flags, secret, message) in cases {
                    let process = try FormwrightProcess(
                        ["serve", "--port", "0", "--forms", forms.path, "--store", store.location] + flags,
                        environment: secret.map { ["CONTACT_HOOK_SECRET": $0] } ?? [:])
                    #expect(process.waitForExit() == 1)
                    #expect(process.text.contains(message), "\(process.text)")
                }
                // `formwright check` says the same, and what is wrong in the descriptor itself.
                let checked = try runFormwright(["check", forms.path])
                #expect(checked.status == 1)
                #expect(checked.output.contains("the environment variable CONTACT_HOOK_SECRET is not set"))
                #expect(checked.output.contains("deliver[1]: e-mail needs an SMTP server"))
                let withAll = try runFormwright(
                    ["check", forms.path, "--smtp", "smtp://127.0.0.1:25", "--mail-from", "f@example.org"],
                    environment: ["CONTACT_HOOK_SECRET": hookSecret])
                #expect(withAll.status == 0, "\(withAll.output)")
                try """
                id: broken
                deliver:
                  - { webhook: "ftp://example.org/in", secretEnv: 9LIVES }
                  - { email: "team at example.org" }
                  - { confirmTo: name }
                  - { email: a@example.org, webhook: "https://example.org" }
                sections: [{ rows: [{ tag: name, type: name }] }]
                """.write(to: forms.appendingPathComponent("broken.yaml"), atomically: true, encoding: .utf8)
                let broken = try runFormwright(["check", forms.path])
                #expect(broken.status == 1)
                for problem in [
                    "deliver[0].webhook: a webhook is an http or https URL, found 'ftp:'",
                    "deliver[0].secretEnv: '9LIVES' is no environment variable's name",
                    "deliver[1].email: 'team at example.org' is not an e-mail address",
                    "deliver[2].confirmTo: 'name' is a name row: a confirmation goes to an email row",
                    "deliver[3]: a delivery has exactly one of 'webhook', 'email' and 'confirmTo'",
                ] {
                    #expect(broken.output.contains(problem), "\(problem) in \(broken.output)")
                }
                try FileManager.default.removeItem(at: forms.appendingPathComponent("broken.yaml"))
                let none = try FormwrightProcess(
                    ["serve", "--port", "0", "--forms", forms.path, "--store", "none"],
                    environment: ["CONTACT_HOOK_SECRET": hookSecret])
                #expect(none.waitForExit() == 1)
                #expect(none.text.contains("form 'contact': deliver needs a database store"), "\(none.text)")
            }
        }

        /// An SMTP server that cannot be reached: each e-mail a failed attempt with the reason, in the
        /// log and the API; the webhook beside them is delivered all the same.
        @Test func anSMTPServerThatRefusesIsAFailedAttempt() async throws {
            try await offPool {
                let store = try TestStore("sqlite")
                defer { store.remove() }
                let receiver = try WebhookReceiver()
                let forms = try contactForms(webhook: receiver.url, mail: true)
                defer { try? FileManager.default.removeItem(at: forms) }
                let (server, port) = try Self.serve(
                    forms: forms, store: store.location,
                    [
                        "--smtp", "smtp://127.0.0.1:\(try freePort())", "--mail-from", "f@example.org",
                        "--delivery-attempts", "1",
                    ])
                let id = try #require(Self.keptID(try exchange(port: port, contactPost(1))))
                let key = try Self.key(store.location, scopes: "read")
                let log = { () throws -> String in
                    try request(
                        port, "/api/forms/contact/submissions/\(id)/deliveries",
                        headers: ["Authorization": "Bearer \(key)"]
                    ).text
                }
                #expect(
                    try eventually(seconds: 15) { try log().components(separatedBy: #""state":"failed""#).count == 3 })
                let text = try log()
                #expect(text.contains(#""kind":"webhook""#) && text.contains(#""state":"delivered""#), "\(text)")
                #expect(text.contains("onnect"), "\(text)")
                #expect(server.text.contains("delivery failed for good"))
            }
        }

        /// `kill -9` with a thousand deliveries pending (the receiver away): after a restart every one
        /// arrives, by its id.
        @Test func pendingDeliveriesSurviveAKill() async throws {
            try await offPool {
                let store = try TestStore("sqlite")
                defer { store.remove() }
                let receiverPort = try freePort()
                let forms = try contactForms(webhook: "http://127.0.0.1:\(receiverPort)/hooks/contact", mail: false)
                defer { try? FileManager.default.removeItem(at: forms) }
                let flags = ["--delivery-attempts", "1000", "--delivery-backoff", "0.5", "--delivery-max-delay", "2"]
                let (first, port) = try Self.serve(forms: forms, store: store.location, flags)
                var ids: [String] = []
                for number in 0..<1_000 {
                    ids.append(try #require(Self.keptID(try exchange(port: port, contactPost(number)))))
                }
                first.signal(SIGKILL)
                _ = first.waitForExit()
                #expect(try store.open().outbox.counts()["contact"]?.pending == 1_000)
                let receiver = try WebhookReceiver(port: receiverPort)
                let (second, _) = try Self.serve(forms: forms, store: store.location, flags)
                #expect(
                    try eventually(seconds: 30) {
                        Set(try receiver.received().compactMap { $0["id"] as? String }).count == 1_000
                    },
                    "\(second.text.suffix(2_000))")
                #expect(
                    Set(try receiver.received().compactMap { $0["id"] as? String }) == Set(ids.map { "msg_\($0)_1_0" }))
                #expect(try receiver.received().allSatisfy { $0["verified"] as? Bool == true })
            }
        }

        /// Two servers on one PostgreSQL deliver each job once: a healthy receiver gets every id exactly once.
        @Test func twoServersOnOnePostgresSendEachJobOnce() async throws {
            try await offPool {
                let url = try PostgresCluster.shared.get().newDatabase()
                let receiver = try WebhookReceiver()
                let forms = try contactForms(webhook: receiver.url, mail: false)
                defer { try? FileManager.default.removeItem(at: forms) }
                let servers = try (0..<2).map { _ in try Self.serve(forms: forms, store: url) }
                var ids: [String] = []
                for number in 0..<400 {
                    ids.append(
                        try #require(Self.keptID(try exchange(port: servers[number % 2].port, contactPost(number)))))
                }
                #expect(try eventually(seconds: 30) { try receiver.received().count >= 400 })
                usleep(1_000_000)
                let received = try receiver.received().compactMap { $0["id"] as? String }
                #expect(received.count == 400, "\(servers.map { $0.0.text.suffix(3_000) })")
                #expect(Set(received) == Set(ids.map { "msg_\($0)_1_0" }))
            }
        }

        /// The receiver away for 60 s while posts keep coming, then back: every submission is delivered,
        /// each `webhook-id` at least once, and exactly once when the receiver drops repeats by id.
        @Test func aReceiverAwayForAMinuteMissesNothing() async throws {
            try await offPool {
                let url = try PostgresCluster.shared.get().newDatabase()
                var receiver = try WebhookReceiver()
                let receiverPort = receiver.port
                let forms = try contactForms(webhook: receiver.url, mail: false)
                defer { try? FileManager.default.removeItem(at: forms) }
                let (server, port) = try Self.serve(
                    forms: forms, store: url, ["--delivery-backoff", "1", "--delivery-max-delay", "5"])
                var ids: [String] = []
                let post = { (until: Date) throws in
                    while Date() < until {
                        ids.append(try #require(Self.keptID(try exchange(port: port, contactPost(ids.count)))))
                        usleep(50_000)
                    }
                }
                try post(Date().addingTimeInterval(3))
                let before = try receiver.received().compactMap { $0["id"] as? String }
                receiver.kill()
                try post(Date().addingTimeInterval(60))
                receiver = try WebhookReceiver(port: receiverPort)
                try post(Date().addingTimeInterval(3))
                let expected = Set(ids.map { "msg_\($0)_1_0" })
                let arrived = { Set(before + (try receiver.received().compactMap { $0["id"] as? String })) }
                #expect(try eventually(seconds: 30) { try arrived() == expected }, "\(server.text.suffix(2_000))")
                #expect(try receiver.received().allSatisfy { $0["verified"] as? Bool == true })
                #expect(!before.isEmpty)
            }
        }

        /// An edit of an editable form's submission is delivered too: `submission.updated`, the new
        /// version in its body and its id.
        @Test func anEditIsDeliveredAsAnUpdate() async throws {
            try await offPool {
                let store = try TestStore("sqlite")
                defer { store.remove() }
                let receiver = try WebhookReceiver()
                let forms = try contactForms(webhook: receiver.url, mail: false, editable: true)
                defer { try? FileManager.default.removeItem(at: forms) }
                let (server, port) = try Self.serve(forms: forms, store: store.location)
                let sent = try exchange(port: port, contactPost(1))
                let id = try #require(Self.keptID(sent))
                let link = try #require(sent.firstMatch(of: /"edit":"([^"]+)"/).map { String($0.1) })
                let edit = #"{"name":"Ada Lovelace","email":"ada1@example.org"}"#
                let saved = try exchange(
                    port: port,
                    "POST \(link) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nIf-Match: \"1\"\r\n"
                        + "Content-Length: \(edit.utf8.count)\r\nConnection: close\r\n\r\n\(edit)")
                #expect(saved.hasPrefix("HTTP/1.1 200"), "\(saved)")
                #expect(try eventually(seconds: 10) { try receiver.received().count >= 2 }, "\(server.text)")
                let hooks = try receiver.received()
                #expect(hooks.compactMap { $0["id"] as? String } == ["msg_\(id)_1_0", "msg_\(id)_2_0"])
                let update = try #require(
                    try JSONSerialization.jsonObject(with: Data((hooks[1]["body"] as? String ?? "").utf8))
                        as? [String: Any])
                #expect(update["type"] as? String == "submission.updated")
                let data = try #require(update["data"] as? [String: Any])
                #expect(data["version"] as? Int == 2)
                #expect((data["httpParameters"] as? [String: Any])?["name"] as? String == "Ada Lovelace")
            }
        }

        /// A key of `scopes` made in `store` with `formwright keys create`.
        static func key(_ store: String, scopes: String) throws -> String {
            let made = try runFormwright(
                ["keys", "create", "key-\(UUID().uuidString.prefix(8))", "--scope", scopes, "--store", store], input: ""
            )
            return String(made.output.split(separator: "\n").last ?? "")
        }
    }
}
