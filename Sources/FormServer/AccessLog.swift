import HTTPServer
import Logging

/// The access log: one swift-log event per request, at `info`, from the logger `formwright.access`.
///
/// The event goes straight to the handler the logging system made for that logger. `Logger.info`
/// would do the same after copying the handler and the event through its own layers, on every
/// request, the static file path's too, for nothing this logger uses (it has no metadata of its own,
/// and its level is fixed when the logging system is bootstrapped). When that handler is Formwright's
/// own `LineLogHandler`, the line goes to its sink straight from the stack, with no string, message
/// or event made for it.
struct AccessLog: Sendable {
    private let handler: any LogHandler
    /// Every field of the event but its message, set once: building a `LogEvent` afresh copies it
    /// once more than filling in a copy of this one.
    private let template: LogEvent
    /// The handler's own line writer for `info`, when it is a `LineLogHandler` without metadata.
    private let direct: LineLogHandler.DirectWriter?

    /// The access log of the handler the logging system gives `label`.
    init(label: String = "formwright.access") {
        handler = Logger(label: label).handler
        direct = (handler as? LineLogHandler)?.directWriter(for: .info)
        template = LogEvent(
            level: .info, message: "", metadata: nil, source: "FormServer", file: #fileID, function: #function,
            line: #line)
    }

    /// Writes `record`'s line, unless the handler's level is above `info`.
    func write(_ record: AccessRecord) {
        // Borrowed in the closure, not bound or passed as `direct.write`: either copies the writer, a
        // retain and a release of what every worker's requests share.
        if direct != nil { return AccessLogLine(record).withBytes { direct?.write($0) } }
        guard handler.logLevel <= .info else { return }
        var event = template
        // The line becomes the message as is: interpolating it would copy it into a second string.
        event.message = Logger.Message(stringLiteral: AccessLogLine(record).description)
        handler.log(event: event)
    }
}
