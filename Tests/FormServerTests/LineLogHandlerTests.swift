import Foundation
import Logging
import Testing

@testable import FormServer

#if canImport(Glibc)
    import Glibc
#endif

/// `LineLogHandler` through a real `LogSink` writing to a pipe: the lines a log reader gets.
@Suite struct LineLogHandlerTests {
    /// A sink on a fresh pipe; `read` returns what reached the pipe so far. Sendable so a test can read
    /// it while a server logs: the sink is, and the pipe's ends never change.
    final class PipeLog: @unchecked Sendable {
        let sink: LogSink
        private let readEnd: Int32
        private let writeEnd: Int32

        init() throws {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw POSIXError(.EIO) }
            readEnd = ends[0]
            writeEnd = ends[1]
            _ = fcntl(readEnd, F_SETFL, O_NONBLOCK)
            // A long interval: lines reach the pipe only when a test flushes or logs a warning.
            sink = LogSink(descriptor: writeEnd, interval: .seconds(3600))
        }

        deinit {
            close(readEnd)
            close(writeEnd)
        }

        func logger(_ label: String, level: Logger.Level = .info) -> Logger {
            Logger(label: label) { LineLogHandler(label: $0, sink: self.sink, level: level) }
        }

        func read() -> [String] {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = Glibc.read(readEnd, &chunk, chunk.count)
                guard count > 0 else { break }
                bytes += chunk[..<count]
            }
            return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        }
    }

    /// `2026-11-22T03:04:05Z ` and the rest of the line.
    private func splitStamp(_ line: String) -> (stamp: String, rest: String) {
        (String(line.prefix(20)), String(line.dropFirst(21)))
    }

    @Test func linesCarryTimeLevelLabelAndMessage() throws {
        let log = try PipeLog()
        log.logger("formwright.access").info("GET /healthz 200 3B 0.08ms 127.0.0.1:5512")
        #expect(log.read().isEmpty, "info lines wait for the batch")
        log.sink.flush()
        let lines = log.read()
        try #require(lines.count == 1)
        let (stamp, rest) = splitStamp(lines[0])
        #expect(rest == "info formwright.access: GET /healthz 200 3B 0.08ms 127.0.0.1:5512")
        #expect(stamp.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil, "\(stamp)")
        let written = try #require(ISO8601DateFormatter().date(from: stamp))
        #expect(abs(written.timeIntervalSinceNow) < 60)
    }

    @Test func everyLevelNamesItself() throws {
        let log = try PipeLog()
        let logger = log.logger("x", level: .trace)
        let levels: [Logger.Level] = [.trace, .debug, .info, .notice, .warning, .error, .critical]
        for level in levels { logger.log(level: level, "m") }
        log.sink.flush()
        #expect(log.read().map { splitStamp($0).rest } == levels.map { "\($0.rawValue) x: m" })
    }

    @Test func warningsAreWrittenAtOnceAfterWhatWaited() throws {
        let log = try PipeLog()
        let logger = log.logger("app")
        logger.info("first")
        logger.warning("second")
        #expect(log.read().map { splitStamp($0).rest } == ["info app: first", "warning app: second"])
    }

    /// Each thread collects its own batch: every line of every thread is written, each thread's in the
    /// order it wrote them, and a warning writes what every thread had waiting before it.
    @Test func linesOfManyThreadsAreAllWrittenEachThreadsInOrder() throws {
        let log = try PipeLog()
        let done = DispatchGroup()
        for thread in 0..<4 {
            done.enter()
            Thread {
                let logger = log.logger("t")
                for line in 0..<150 { logger.info("\(thread) \(line)") }
                done.leave()
            }.start()
        }
        done.wait()
        #expect(log.read().isEmpty, "info lines wait for their thread's batch")
        log.logger("t").warning("last")
        let lines = log.read().map { splitStamp($0).rest }
        #expect(lines.count == 601)
        #expect(lines.last == "warning t: last")
        for thread in 0..<4 {
            let own = lines.filter { $0.hasPrefix("info t: \(thread) ") }
            #expect(own == (0..<150).map { "info t: \(thread) \($0)" })
        }
    }

    @Test func levelsBelowTheLoggersAreDropped() throws {
        let log = try PipeLog()
        let logger = log.logger("app", level: .notice)
        logger.info("quiet")
        logger.notice("loud")
        log.sink.flush()
        #expect(log.read().map { splitStamp($0).rest } == ["notice app: loud"])
    }

    @Test func metadataFollowsTheMessageSortedByKey() throws {
        let log = try PipeLog()
        var logger = log.logger("app")
        logger[metadataKey: "zone"] = "eu"
        logger.info("started", metadata: ["port": "8080", "host": "0.0.0.0"])
        log.sink.flush()
        #expect(log.read().map { splitStamp($0).rest } == ["info app: started host=0.0.0.0 port=8080 zone=eu"])
    }

    @Test func aDirectWriterWritesTheLineLogWould() throws {
        let log = try PipeLog()
        let handler = LineLogHandler(label: "formwright.access", sink: log.sink)
        let writer = try #require(handler.directWriter(for: .info))
        Array("GET /forms 200 812B 0.31ms 127.0.0.1:5512".utf8).withUnsafeBufferPointer(writer.write)
        Logger(label: "formwright.access") { _ in handler }.info("GET /forms 200 812B 0.31ms 127.0.0.1:5512")
        log.sink.flush()
        let lines = log.read().map { splitStamp($0).rest }
        #expect(
            lines == Array(repeating: "info formwright.access: GET /forms 200 812B 0.31ms 127.0.0.1:5512", count: 2))
    }

    @Test func noDirectWriterWhereLogWouldWriteOtherwise() {
        let sink = LogSink(descriptor: -1, interval: .seconds(3600))
        // Below the handler's level, log writes nothing; with metadata, it adds it to the line.
        #expect(LineLogHandler(label: "a", sink: sink, level: .notice).directWriter(for: .info) == nil)
        var tagged = LineLogHandler(label: "a", sink: sink)
        tagged[metadataKey: "zone"] = "eu"
        #expect(tagged.directWriter(for: .info) == nil)
        #expect(LineLogHandler(label: "a", sink: sink).directWriter(for: .info)?.level == .info)
    }
}
