import Logging

/// A swift-log backend writing one plain line per message through a shared `LogSink`:
/// `2026-11-22T03:04:05Z info formwright.access: GET /healthz 200 3B 0.08ms 127.0.0.1:5512`.
///
/// ```swift
/// let sink = LogSink()
/// LoggingSystem.bootstrap { LineLogHandler(label: $0, sink: sink) }
/// ```
public struct LineLogHandler: LogHandler {
    /// Everything but the settings, behind one reference: swift-log copies the handler for each
    /// message, and one retain is cheaper than one per field.
    private let writer: Writer
    /// The lowest level written.
    public var logLevel: Logger.Level = .info
    /// Metadata added to every line of this logger.
    public var metadata: Logger.Metadata = [:]

    /// A handler for the logger named `label`.
    public init(label: String, sink: LogSink, level: Logger.Level = .info) {
        self.writer = Writer(label: label, sink: sink)
        self.logLevel = level
    }

    /// Metadata by key.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes one line; warnings and worse are written at once rather than batched.
    public func log(event: LogEvent) {
        let urgent = event.level >= .warning
        // Most lines (every access line) have no metadata: the message is written as it is, uncopied.
        guard !metadata.isEmpty || !(event.metadata?.isEmpty ?? true) else {
            return writer.write(event.message.description, level: event.level, urgent: urgent)
        }
        let merged = event.metadata.map { metadata.merging($0) { $1 } } ?? metadata
        let text =
            event.message.description + merged.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        writer.write(text, level: event.level, urgent: urgent)
    }

    /// Writes `message` at `level` straight to the sink, when this handler writes that level and has
    /// no metadata of its own: what `log(event:)` would write, for a caller that has the line as bytes
    /// and need not make a string and an event of it (the access log, once per request). Nil otherwise.
    func directWriter(for level: Logger.Level) -> DirectWriter? {
        guard logLevel <= level, metadata.isEmpty else { return nil }
        return DirectWriter(writer: writer, level: level)
    }

    /// A line writer for one level of one `LineLogHandler` (`directWriter(for:)`).
    struct DirectWriter: Sendable {
        fileprivate let writer: Writer
        let level: Logger.Level

        /// Writes one line of `message` bytes.
        func write(_ message: UnsafeBufferPointer<UInt8>) {
            writer.write(message, level: level, urgent: level >= .warning)
        }
    }

    fileprivate final class Writer: @unchecked Sendable {
        let sink: LogSink
        /// ` level label: ` for each level, from trace to critical, in one buffer this writer owns: read
        /// as raw bytes, a prefix costs no retain of a shared array per line (every worker's requests
        /// write the access log's). `@unchecked Sendable`: written once in `init`, only read after.
        private let prefixes: [UnsafeBufferPointer<UInt8>]

        init(label: String, sink: LogSink) {
            self.sink = sink
            let levels: [Logger.Level] = [.trace, .debug, .info, .notice, .warning, .error, .critical]
            prefixes = levels.map { level in
                let bytes = LogSink.prefix(level: level.rawValue, label: label)
                let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
                _ = copy.initialize(from: bytes)
                return UnsafeBufferPointer(copy)
            }
        }

        deinit { for prefix in prefixes { prefix.deallocate() } }

        /// Writes `message` with `level`'s prefix.
        func write(_ message: String, level: Logger.Level, urgent: Bool) {
            sink.write(prefix: prefixes[Self.index(of: level)], message: message, urgent: urgent)
        }

        /// Writes `message`'s bytes with `level`'s prefix.
        func write(_ message: UnsafeBufferPointer<UInt8>, level: Logger.Level, urgent: Bool) {
            sink.write(prefix: prefixes[Self.index(of: level)], message: message, urgent: urgent)
        }

        /// `level`'s place in `prefixes`.
        private static func index(of level: Logger.Level) -> Int {
            switch level {
            case .trace: 0
            case .debug: 1
            case .info: 2
            case .notice: 3
            case .warning: 4
            case .error: 5
            case .critical: 6
            }
        }
    }
}
