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
                                guard let answer = try? exchange(port: port, eventPost) else { continue }
                                if let id = keptID(answer) { ids.withLock { $0.append(id) } }
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
