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

    private final class Writer: Sendable {
        let sink: LogSink
        /// ` level label: ` for each level, from trace to critical.
        private let prefixes: [[UInt8]]

        init(label: String, sink: LogSink) {
            self.sink = sink
            let levels: [Logger.Level] = [.trace, .debug, .info, .notice, .warning, .error, .critical]
            prefixes = levels.map { LogSink.prefix(level: $0.rawValue, label: label) }
        }

        /// Writes `message` with `level`'s prefix.
        func write(_ message: String, level: Logger.Level, urgent: Bool) {
            let index =
                switch level {
                case .trace: 0
                case .debug: 1
                case .info: 2
                case .notice: 3
                case .warning: 4
                case .error: 5
                case .critical: 6
                }
            sink.write(prefix: prefixes[index], message: message, urgent: urgent)
        }
    }
}
