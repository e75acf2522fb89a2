import FormStore
import Foundation
import HTTPTestClient
import Synchronization
import TestProcesses
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension CommandSuites {
    /// `serve --store postgres://…` end to end, on a real PostgreSQL server.
    @Suite struct PostgresStoreTests {
        /// Two servers on one database, taking posts alternately: each keeps its own, both find all of
        /// them, and so does `submissions list`.
        @Test func twoServersShareOneDatabase() async throws {
            try await offPool {
                let url = try PostgresCluster.shared.get().newDatabase()
                let servers = try (0..<2).map { _ in
                    try FormwrightProcess(["serve", "--port", "0", "--store", url])
                }
                let ports = try servers.map { server in try #require(server.listeningPort(), "\(server.text)") }
                var ids: [String] = []
                for number in 0..<20 {
                    let answer = try exchange(port: ports[number % 2], eventPost)
                    ids.append(try #require(keptID(answer), "post \(number): \(answer)"))
                }
                #expect(Set(ids).count == 20)
                let store = try PostgresSubmissionStore(url: url, name: url)
                // Two processes' ids of one millisecond may sort either way: the same set, newest first.
                let kept = try store.submissions(formID: "event", limit: 100).map(\.id.description)
                #expect(Set(kept) == Set(ids) && kept.count == 20)
                #expect(kept == kept.sorted(by: >))
                let listed = try runFormwright(["submissions", "list", "--store", url, "--form", "event"], input: "")
                #expect(listed.status == 0, "\(listed.errors)")
                #expect(listed.output.split(separator: "\n").map { String($0.prefix(26)) } == kept)
            }
        }

        /// Two servers sharing a database and a `FORMWRIGHT_SECRET`: the edit link one gives opens the
        /// submission on the other; an edit saved through one makes the same stale edit through the
        /// other a `412` naming the version now; the versions are the same seen from either.
        @Test func anEditLinkWorksOnEveryServerAndEditsDoNotCross() async throws {
            try await offPool {
                let url = try PostgresCluster.shared.get().newDatabase()
                let secret = ["FORMWRIGHT_SECRET": String(repeating: "k", count: 64)]
                let servers = try (0..<2).map { _ in
                    try FormwrightProcess(["serve", "--port", "0", "--store", url], environment: secret)
                }
                let ports = try servers.map { server in try #require(server.listeningPort(), "\(server.text)") }
                let post = { (port: Int, target: String, json: String, ifMatch: String?) in
                    try exchange(
                        port: port,
                        "POST \(target) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                            + (ifMatch.map { "If-Match: \($0)\r\n" } ?? "")
                            + "Content-Length: \(json.utf8.count)\r\nConnection: close\r\n\r\n\(json)")
                }
                let sent = try post(ports[0], "/forms/reunion", #"{"name":"Ada","email":"ada@example.org"}"#, nil)
                #expect(sent.hasPrefix("HTTP/1.1 200"), "\(sent)")
                let link = try #require(sent.firstMatch(of: /"edit":"([^"]+)"/).map { String($0.1) })

                let read = try exchange(
                    port: ports[1],
                    "GET \(link) HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nConnection: close\r\n\r\n")
                #expect(read.hasPrefix("HTTP/1.1 200"), "\(read)")
                #expect(read.contains(#"ETag: "1""#))
                #expect(read.contains(#""name":"Ada""#))

                let saved = try post(ports[1], link, #"{"name":"Ada Lovelace","email":"ada@example.org"}"#, #""1""#)
                #expect(saved.hasPrefix("HTTP/1.1 200"), "\(saved)")
                #expect(saved.contains(#"ETag: "2""#))
                let stale = try post(ports[0], link, #"{"name":"Ada King","email":"ada@example.org"}"#, #""1""#)
                #expect(stale.hasPrefix("HTTP/1.1 412"), "\(stale)")
                #expect(stale.contains(#"ETag: "2""#))

                let store = try PostgresSubmissionStore(url: url, name: url)
                let id = try #require(try store.submissions(formID: "reunion", limit: 10).first?.id)
                let versions = try #require(try store.versions(formID: "reunion", id: id))
                #expect(versions.map(\.version) == [1, 2])
                #expect(versions[1].httpParameters.contains(#""name":"Ada Lovelace""#))
            }
        }

        /// A key made with `keys create` on the shared database works on both servers, for its scope
        /// alone, and `keys revoke` stops it on both at once.
        @Test func keysAreSharedByEveryServerOfTheDatabase() async throws {
            try await offPool {
                let url = try PostgresCluster.shared.get().newDatabase()
                let servers = try (0..<2).map { _ in try FormwrightProcess(["serve", "--port", "0", "--store", url]) }
                let ports = try servers.map { server in try #require(server.listeningPort(), "\(server.text)") }
                let id = try #require(keptID(try exchange(port: ports[0], eventPost)))
                let made = try runFormwright(
                    ["keys", "create", "reports", "--scope", "read", "--form", "event", "--store", url], input: "")
                #expect(made.status == 0, "\(made.errors)")
                let key = String(made.output.split(separator: "\n").last ?? "")
                #expect(key.hasPrefix("fwk_") && key.count == 68)
                let again = try runFormwright(
                    ["keys", "create", "reports", "--scope", "read", "--store", url], input: "")
                #expect(again.status == 1)
                #expect(again.errors.contains("a key named 'reports' exists"))
                let listed = try runFormwright(["keys", "list", "--store", url], input: "")
                #expect(listed.output.hasPrefix("reports read event "))
                #expect(!listed.output.contains(key))

                let read = { (port: Int, target: String) in
                    try exchange(
                        port: port,
                        "GET \(target) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(key)\r\nConnection: close\r\n\r\n"
                    )
                }
                for port in ports {
                    let one = try read(port, "/api/forms/event/submissions/\(id)")
                    #expect(one.hasPrefix("HTTP/1.1 200"), "\(one)")
                    #expect(one.contains(#""title":"Lunch""#))
                    #expect(try read(port, "/api/forms/event/submissions.csv").hasPrefix("HTTP/1.1 403"))
                }
                let revoked = try runFormwright(["keys", "revoke", "reports", "--store", url], input: "")
                #expect(revoked.status == 0, "\(revoked.errors)")
                for port in ports {
                    #expect(try read(port, "/api/forms/event/submissions/\(id)").hasPrefix("HTTP/1.1 401"))
                }
            }
        }

        /// PostgreSQL stopped for 30 s while clients post: posts get `503` with `Retry-After` (never a
        /// cut connection or another error), `/readyz` says so, nothing answered as kept is lost, and
        /// posts are kept again within 5 s of the database's return, without a restart.
        @Test func aDatabaseOutageIsAnswered503AndHealsItself() async throws {
            try await offPool {
                let cluster = try PostgresCluster()
                defer { cluster.remove() }
                let url = try cluster.newDatabase()
                let server = try FormwrightProcess(["serve", "--port", "0", "--store", url])
                let port = try #require(server.listeningPort(), "\(server.text)")
                let kept = Mutex<[(at: Date, id: String)]>([])
                let refused = Mutex<[String]>([])
                let stop = Atomic<Bool>(false)
                let clients = (0..<4).map { _ in
                    Thread {
                        while !stop.load(ordering: .relaxed) {
                            let answer = (try? exchange(port: port, eventPost)) ?? ""
                            if let id = keptID(answer) {
                                kept.withLock { $0.append((Date(), id)) }
                            } else {
                                refused.withLock { $0.append(answer) }
                                usleep(20_000)
                            }
                        }
                    }
                }
                for client in clients { client.start() }
                defer {
                    stop.store(true, ordering: .relaxed)
                    for client in clients { while client.isExecuting { usleep(5_000) } }
                }
                while kept.withLock({ $0.count }) < 20 { usleep(10_000) }
                try cluster.stop()
                sleep(2)
                let ready = try exchange(port: port, "GET /readyz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                #expect(ready.hasPrefix("HTTP/1.1 503"), "\(ready)")
                sleep(28)
                try cluster.start()
                let back = Date()
                while kept.withLock({ $0.last?.at ?? .distantPast }) < back, Date() < back.addingTimeInterval(15) {
                    usleep(10_000)
                }
                let healed = kept.withLock { $0.last?.at ?? .distantPast }.timeIntervalSince(back)
                #expect(healed >= 0 && healed <= 5, "first post kept \(healed) s after the database's return")
                stop.store(true, ordering: .relaxed)
                for client in clients { while client.isExecuting { usleep(5_000) } }

                let answers = refused.withLock { $0 }
                #expect(answers.count > 10, "posts during the outage: \(answers.count) refused")
                let wrong = answers.filter {
                    !($0.hasPrefix("HTTP/1.1 503") && $0.contains("\r\nRetry-After: ") && $0.contains(#""notKept""#))
                }
                #expect(wrong.isEmpty, "\(wrong.count) answers other than 503 notKept, first: \(wrong.first ?? "")")
                let answered = Set(kept.withLock { $0.map(\.id) })
                let stored = try Set(
                    PostgresSubmissionStore(url: url, name: url).submissions(formID: "event", limit: 1_000_000).map(
                        \.id.description))
                #expect(answered.subtracting(stored).isEmpty, "answered as kept but missing")
                let readyAgain = try exchange(
                    port: port, "GET /readyz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                #expect(readyAgain.hasPrefix("HTTP/1.1 200"), "\(readyAgain)")
            }
        }
    }
}
