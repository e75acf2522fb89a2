import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Waiting for termination signals. Kept out of top-level code: a closure written there is
/// main-actor isolated and traps when a signal source calls it on another queue (LIBMICROHTTPD.md §f).
enum Signals {
    /// Blocks until one of `signals` arrives and returns it. SIGPIPE is ignored from then on.
    static func wait(for signals: [Int32]) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let received = DispatchSemaphore(value: 0)
        let caught = SignalBox()
        let queue = DispatchQueue(label: "formwright.signals")
        let sources = signals.map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { @Sendable in
                caught.set(number)
                received.signal()
            }
            source.resume()
            return source
        }
        received.wait()
        sources.forEach { $0.cancel() }
        return caught.value
    }

    /// `SIGTERM`, `SIGINT`, or the number.
    static func name(_ number: Int32) -> String {
        switch number {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        default: "signal \(number)"
        }
    }
}

/// The signal number, set on the signal queue and read after the semaphore.
private final class SignalBox: @unchecked Sendable {
    // @unchecked: written once before the semaphore is signalled, read after it is awaited.
    private(set) var value: Int32 = 0
    func set(_ number: Int32) { if value == 0 { value = number } }
}
