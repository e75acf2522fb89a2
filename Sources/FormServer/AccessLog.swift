import Dispatch
import HTTPServer
import Logging
import Synchronization

/// The access log: a line per request through swift-log (`formwright.access`), written off the
/// request threads.
///
/// A request thread only queues its `AccessRecord` (a few retains under a lock); a background timer
/// formats the queued records and logs them in order every 100 ms. Formatting and logging a line
/// on the request thread cost a static file request more than half of what Formwright adds to
/// libmicrohttpd's own work. Nothing is dropped: a queue that reaches its capacity is written out
/// by the request thread that found it full, and `drain()` writes what is left at shutdown.
final class AccessLog: Sendable {
    private let logger: Logger
    private let capacity: Int
    private let pending: Mutex<[AccessRecord]>
    /// Held while writing, so that a timer drain and an overflow drain never interleave their lines.
    private let writing = Mutex(())
    private let timer: AccessLogTimer

    /// A log writing through `logger` every `interval`; at most `capacity` records wait.
    init(logger: Logger, interval: DispatchTimeInterval = .milliseconds(100), capacity: Int = 16_384) {
        self.logger = logger
        self.capacity = capacity
        var queue: [AccessRecord] = []
        queue.reserveCapacity(1024)
        pending = Mutex(queue)
        let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "formwright.access-log"))
        timer = AccessLogTimer(source: source)
        source.schedule(deadline: .now() + interval, repeating: interval)
        source.setEventHandler { [weak self] in self?.drain() }
        source.resume()
    }

    deinit { timer.source.cancel() }

    /// Queues one request's record; called on the request's thread.
    func record(_ record: AccessRecord) {
        let full = pending.withLock { queue in
            queue.append(record)
            return queue.count >= capacity
        }
        if full { drain() }
    }

    /// Logs every queued record, oldest first.
    func drain() {
        writing.withLock { _ in
            let batch = pending.withLock { queue in
                defer { queue.removeAll(keepingCapacity: true) }
                return queue
            }
            for record in batch {
                // The line becomes the message as is: interpolating it would copy it into a second string.
                logger.info(Logger.Message(stringLiteral: AccessLogLine(record).description))
            }
        }
    }
}

/// The drain timer. `@unchecked Sendable`: set up once in `init`, cancelled once in `deinit`;
/// Dispatch sources are thread-safe to cancel.
private struct AccessLogTimer: @unchecked Sendable {
    let source: any DispatchSourceTimer
}
