import Dispatch
import HTTPServer
import Logging
import Synchronization
import Testing

@testable import FormServer

/// Collects the messages logged through it.
private struct CapturingHandler: LogHandler {
    let lines: Lines
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) { lines.storage.withLock { $0.append(event.message.description) } }
}

private final class Lines: Sendable {
    let storage = Mutex<[String]>([])
    var all: [String] { storage.withLock { $0 } }
}

@Suite struct AccessLogTests {
    private func record(_ target: String) -> AccessRecord {
        AccessRecord(
            method: "GET", target: target, status: 200, bytes: 2, duration: .microseconds(80), remoteAddress: nil,
            abortReason: nil)
    }

    private func log(interval: DispatchTimeInterval, capacity: Int = 16_384) -> (AccessLog, Lines) {
        let lines = Lines()
        let logger = Logger(label: "formwright.access") { _ in CapturingHandler(lines: lines) }
        return (AccessLog(logger: logger, interval: interval, capacity: capacity), lines)
    }

    @Test func recordsAreWrittenInOrderByTheDrain() {
        let (log, lines) = log(interval: .seconds(3600))
        for index in 0..<5 { log.record(record("/\(index)")) }
        #expect(lines.all.isEmpty)  // queued, not yet written: the request thread did no formatting
        log.drain()
        #expect(lines.all == (0..<5).map { "GET /\($0) 200 2B 0.08ms" })
        log.drain()
        #expect(lines.all.count == 5)  // each record is written once
    }

    @Test func aFullQueueIsWrittenByTheThreadThatFilledIt() {
        let (log, lines) = log(interval: .seconds(3600), capacity: 3)
        log.record(record("/a"))
        log.record(record("/b"))
        #expect(lines.all.isEmpty)
        log.record(record("/c"))
        #expect(lines.all == ["GET /a 200 2B 0.08ms", "GET /b 200 2B 0.08ms", "GET /c 200 2B 0.08ms"])
    }

    @Test func theTimerWritesQueuedRecords() async throws {
        let (log, lines) = log(interval: .milliseconds(10))
        log.record(record("/timer"))
        for _ in 0..<200 where lines.all.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        #expect(lines.all == ["GET /timer 200 2B 0.08ms"])
    }

    @Test func concurrentRecordsAreAllWrittenOnce() async {
        let (log, lines) = log(interval: .milliseconds(5), capacity: 64)
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<8 {
                group.addTask { for index in 0..<500 { log.record(self.record("/\(thread)/\(index)")) } }
            }
        }
        log.drain()
        let written = lines.all
        #expect(written.count == 4000)
        #expect(Set(written).count == 4000)
        // Each thread's records keep their order.
        let first = written.filter { $0.hasPrefix("GET /0/") }
        #expect(first == (0..<500).map { "GET /0/\($0) 200 2B 0.08ms" })
    }
}
