import FormStore
import Foundation
import HTTPTestClient
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension CommandSuites {
    /// `serve --store` killed with SIGKILL while clients post, five times, on SQLite and on PostgreSQL:
    /// every submission answered as kept is in the database when it is opened again, and the server
    /// starts again on it.
    @Suite struct StoreCrashTests {
        private static let event = #"{"title":"Lunch","starts":"2026-11-23T12:00","ends":"2026-11-23T13:00"}"#
        private static let post =
            "POST /forms/event HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(event.utf8.count)\r\nConnection: close\r\n\r\n\(event)"

        /// The id of a whole `200` answer, nil for anything else (a connection the kill cut short).
        private static func keptID(_ answer: String) -> String? {
            guard answer.hasPrefix("HTTP/1.1 200"), answer.hasSuffix("}}"),
                let match = answer.firstMatch(of: /\{"id":"([0-9A-Z]{26})"/)
            else { return nil }
            return String(match.1)
        }

        @Test(arguments: ["sqlite", "postgres"])
        func everySubmissionAnsweredAsKeptSurvivesAKill(_ backend: String) async throws {
            try await offPool {
                let store = try TestStore(backend)
                defer { store.remove() }
                var answered = Set<String>()
                for round in 1...5 {
                    let server = try FormwrightProcess(["serve", "--port", "0", "--store", store.location])
                    let port = try #require(server.listeningPort(), "round \(round): \(server.text)")
                    let ids = Mutex<[String]>([])
                    let stop = Atomic<Bool>(false)
                    let clients = (0..<6).map { _ in
                        Thread {
                            while !stop.load(ordering: .relaxed) {
                                guard let answer = try? exchange(port: port, Self.post) else { continue }
                                if let id = Self.keptID(answer) { ids.withLock { $0.append(id) } }
                            }
                        }
                    }
                    for client in clients { client.start() }
                    // Killed once posts are being kept, mid-stream.
                    let deadline = Date().addingTimeInterval(10)
                    while ids.withLock({ $0.count }) < 50 * round, Date() < deadline { usleep(5_000) }
                    server.signal(SIGKILL)
                    _ = server.waitForExit()
                    stop.store(true, ordering: .relaxed)
                    for client in clients { while client.isExecuting { usleep(5_000) } }
                    let roundIDs = ids.withLock { $0 }
                    #expect(roundIDs.count >= 50, "round \(round): only \(roundIDs.count) answered")
                    answered.formUnion(roundIDs)
                    let kept = Set(try store.keptIDs(of: "event"))
                    let lost = answered.subtracting(kept)
                    #expect(
                        lost.isEmpty, "round \(round): \(lost.count) of \(answered.count) answered as kept are missing")
                }
            }
        }
    }
}
