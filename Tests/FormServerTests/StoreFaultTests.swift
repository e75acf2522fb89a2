import FormStore
import Foundation
import HTTPTestClient
import TestProcesses
import Testing

@testable import FormServer

#if canImport(Glibc)
    import Glibc
#endif

/// An SQLite store on a disk that fills up: posts get `503` with `Retry-After` (`notKept`), nothing
/// answered as kept is lost, and posts are kept again, without a restart, once there is room. The disk
/// is a real tmpfs of 512 KiB (the schema and a few dozen submissions), mounted for the test: root only. (A disk cannot be turned read-only
/// under an open database, Linux refuses; one read-only at start stops the server, naming the file.)
@Suite struct StoreFaultTests {
    private static let event = #"{"title":"Lunch","starts":"2026-11-23T12:00","ends":"2026-11-23T13:00"}"#

    /// Runs mount(8). A `ChildProcess`, not Foundation's `Process`, whose watching of its child through
    /// libdispatch can crash the whole test process.
    private static func mount(_ arguments: [String]) throws {
        let child = try ChildProcess("/bin/mount", arguments, environment: ["PATH": "/usr/bin:/bin"], directory: "/")
        guard child.waitUntilExit() == 0 else { throw MountError(arguments: arguments) }
    }

    struct MountError: Error {
        let arguments: [String]
    }

    @Test(.enabled(if: getuid() == 0, "mounts a tmpfs, which takes root"))
    func aFullDiskIsAnswered503AndNothingKeptIsLost() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fw-full-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Self.mount(["-t", "tmpfs", "-o", "size=512k", "tmpfs", folder])
        defer {
            umount(folder)
            try? FileManager.default.removeItem(atPath: folder)
        }
        let path = "\(folder)/formwright.db"
        let (kept, refused, afterRoom) = try await withFormServer(store: "sqlite:\(path)") {
            port in
            var kept: [String] = []
            var refused: [TestResponse] = []
            for _ in 0..<5_000 where refused.count < 3 {
                let answer = try postJSON(port, "event", Self.event)
                if answer.status == 200, let match = answer.text.firstMatch(of: /"id":"([0-9A-Z]{26})"/) {
                    kept.append(String(match.1))
                } else {
                    refused.append(answer)
                }
            }
            try Self.mount(["-o", "remount,size=8m", folder])
            let afterRoom = try postJSON(port, "event", Self.event)
            return (kept, refused, afterRoom)
        }
        #expect(kept.count > 10, "kept \(kept.count) before the disk was full")
        #expect(refused.count == 3, "the disk never filled: \(kept.count) kept")
        for answer in refused {
            #expect(answer.status == 503, "\(answer.text)")
            #expect(answer.header("Retry-After") != nil)
            #expect(answer.text.contains(#""code":"notKept""#))
        }
        #expect(afterRoom.status == 200, "\(afterRoom.text)")
        let stored = Set(
            try SQLiteSubmissionStore(path: path).submissions(formID: "event", limit: 100_000).map(\.id.description))
        #expect(Set(kept).isSubset(of: stored))
        #expect(stored.count == kept.count + 1)
    }
}
