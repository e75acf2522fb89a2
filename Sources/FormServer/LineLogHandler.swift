import Logging

/// A swift-log backend writing one plain line per message through a shared `LogSink`:
/// `2026-11-22T03:04:05Z info formwright.access: GET /healthz 200 3B 0.08ms 127.0.0.1:5512`.
///
/// ```swift
/// let sink = LogSink()
/// LoggingSystem.bootstrap { LineLogHandler(label: $0, sink: sink) }
/// ```
public struct LineLogHandler: LogHandler {
    private let label: String
    private let sink: LogSink
    /// The lowest level written.
    public var logLevel: Logger.Level = .info
    /// Metadata added to every line of this logger.
    public var metadata: Logger.Metadata = [:]

    /// A handler for the logger named `label`.
    public init(label: String, sink: LogSink, level: Logger.Level = .info) {
        self.label = label
        self.sink = sink
        self.logLevel = level
    }

    /// Metadata by key.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes one line; warnings and worse are written at once rather than batched.
    public func log(event: LogEvent) {
        var text = event.message.description
        let merged = event.metadata.map { metadata.merging($0) { $1 } } ?? metadata
        if !merged.isEmpty {
            text += merged.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        }
        sink.write(level: event.level.rawValue, label: label, message: text, urgent: event.level >= .warning)
    }
}
