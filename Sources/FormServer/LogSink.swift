import Dispatch
import HTTPServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A buffered writer of log lines to a file descriptor, shared by every logger of the process.
///
/// An access log writes a line per request; a `write(2)` per line would cost the server more than
/// many requests do. Lines are collected and written in batches: when a thread has 32 KiB pending, every
/// 200 ms, at once for warnings and errors, and on `flush()` at shutdown.
///
/// Each thread collects its own batch (`Shards`), as a server's workers keep their own log buffers:
/// one batch for all would have every request write its lock and its bytes from whichever core served it.
/// So lines of one thread keep their order, and lines of different threads are interleaved by batch,
/// not by the second they were written in.
public final class LogSink: Sendable {
    /// One thread's lines not yet written, in a buffer of its own that lines are copied into whole.
    /// `@unchecked Sendable`: the buffer is touched only under its shard's lock.
    private struct Pending: ~Copyable, @unchecked Sendable {
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: LogSink.batchSize)
        var count = 0
        var second = 0
        var stamp: [UInt8] = []

        deinit { bytes.deallocate() }
    }

    private let descriptor: Int32
    private let pending = Shards { _ in Pending() }
    private let timer: TimerHandle
    private static let batchSize = 32 * 1024

    /// A sink writing to `descriptor` (standard output by default).
    public init(descriptor: Int32 = 1, interval: DispatchTimeInterval = .milliseconds(200)) {
        self.descriptor = descriptor
        let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "formwright.log-flush"))
        timer = TimerHandle(source: source)
        source.schedule(deadline: .now() + interval, repeating: interval)
        source.setEventHandler { [weak self] in self?.flush() }
        source.resume()
    }

    deinit { timer.source.cancel() }

    /// Appends one line (a newline is added) stamped with the current UTC second:
    /// `2026-11-22T03:04:05Z info formwright.access: GET / 200 3B 0.08ms 127.0.0.1:5512`.
    public func write(level: String, label: String, message: String, urgent: Bool) {
        Self.prefix(level: level, label: label).withUnsafeBufferPointer {
            write(prefix: $0, message: message, urgent: urgent)
        }
    }

    /// What follows the time on every line of one logger at one level: ` info formwright.access: `.
    static func prefix(level: String, label: String) -> [UInt8] {
        Array(" \(level) \(label): ".utf8)
    }

    /// Appends one line whose level and label are already written out as `prefix`: a logger writes
    /// many lines with the same few prefixes, so they are built once (see `LineLogHandler`).
    func write(prefix: UnsafeBufferPointer<UInt8>, message: String, urgent: Bool) {
        // A native string's bytes are read in place; only a bridged or lazy one is copied first.
        if let done = message.utf8.withContiguousStorageIfAvailable({
            write(prefix: prefix, message: $0, urgent: urgent)
        }) {
            return done
        }
        var copy = message
        copy.withUTF8 { write(prefix: prefix, message: $0, urgent: urgent) }
    }

    /// Appends one line of `message` bytes after `prefix`, as `write(prefix:message:urgent:)` does a string's.
    func write(prefix: UnsafeBufferPointer<UInt8>, message: UnsafeBufferPointer<UInt8>, urgent: Bool) {
        // A warning is written at once, after every line that any thread has collected before it.
        if urgent { flush() }
        pending.withLock { state in
            let now = time(nil)
            if now != state.second {
                state.second = now
                state.stamp = Self.timestamp(now)
            }
            let length = state.stamp.count + prefix.count + message.count + 1
            // A full batch is written before the line that would not fit: the buffer is never grown.
            if state.count + length > Self.batchSize { writeOut(&state) }
            guard length <= Self.batchSize else {
                return writeAlone(stamp: state.stamp, prefix: prefix, message: message)
            }
            // The line is copied in place, part by part: no line is assembled elsewhere first.
            var end = state.bytes + state.count
            state.stamp.withUnsafeBufferPointer { end = Self.copy($0, to: end) }
            end = Self.copy(prefix, to: end)
            end = Self.copy(message, to: end)
            end.pointee = UInt8(ascii: "\n")
            state.count += length
            if urgent { writeOut(&state) }
        }
    }

    /// Copies `part` to `destination`; returns where the next part goes.
    private static func copy(
        _ part: UnsafeBufferPointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>
    )
        -> UnsafeMutablePointer<UInt8>
    {
        guard let base = part.baseAddress else { return destination }
        destination.update(from: base, count: part.count)
        return destination + part.count
    }

    /// Writes whatever every thread has pending now.
    ///
    /// This, the write of a batch and the time stamp are out of line: each runs for one line in
    /// hundreds, and inlined into `write` they would be read with every line (docs/benchmarks.md,
    /// "What a request costs").
    @inline(never)
    public func flush() {
        pending.reduce(()) { _, state in writeOut(&state) }
    }

    /// Writes one thread's pending lines; called under its shard's lock, so its lines keep their order.
    @inline(never)
    private func writeOut(_ state: inout Pending) {
        writeAll(UnsafeBufferPointer(start: state.bytes, count: state.count))
        state.count = 0
    }

    /// A line longer than a batch, written on its own.
    @inline(never)
    private func writeAlone(
        stamp: [UInt8], prefix: UnsafeBufferPointer<UInt8>, message: UnsafeBufferPointer<UInt8>
    ) {
        let line = stamp + Array(prefix) + Array(message) + [UInt8(ascii: "\n")]
        line.withUnsafeBufferPointer { writeAll($0) }
    }

    private func writeAll(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }  // a closed log must not stop the server
            offset += written
        }
    }

    /// `2026-11-22T03:04:05Z`.
    @inline(never)
    private static func timestamp(_ seconds: Int) -> [UInt8] {
        var time = seconds
        var parts = tm()
        gmtime_r(&time, &parts)
        var text = [CChar](repeating: 0, count: 32)
        let count = strftime(&text, text.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        return text.prefix(count).map { UInt8(bitPattern: $0) }
    }
}

/// A timer held by a `Sendable` class (the log's flush, the submission store's watchdog).
/// `@unchecked Sendable`: set up once in `init`, cancelled once in `deinit`; Dispatch sources are
/// thread-safe to cancel.
struct TimerHandle: @unchecked Sendable {
    let source: any DispatchSourceTimer
}
