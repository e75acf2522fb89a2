import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Catching the signals `serve` answers. Kept out of top-level code: a closure written there is
/// main-actor isolated and traps when a signal source calls it on another queue (Swift 6 checks isolation at run time).
///
/// Watching starts before the server does, so a signal sent as soon as the server listens is caught
/// rather than taking the signal's default action (for SIGHUP and SIGTERM, ending the process at once).
final class Signals: @unchecked Sendable {
    // @unchecked: the sources are set in `init` and only cancelled in `wait`, on one thread.
    private let received = DispatchSemaphore(value: 0)
    private let caught = SignalBox()
    private var sources: [any DispatchSourceSignal] = []

    /// Catches `stop` (which `wait` returns) and `notice` (each passed to `onNotice`, on a queue of
    /// its own, and otherwise ignored) from now on. SIGPIPE is ignored too.
    init(stop: [Int32], notice: [Int32], onNotice: @escaping @Sendable (Int32) -> Void) {
        signal(SIGPIPE, SIG_IGN)
        let queue = DispatchQueue(label: "formwright.signals")
        let (received, caught) = (self.received, self.caught)
        for number in stop + notice {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            if stop.contains(number) {
                source.setEventHandler { @Sendable in
                    caught.set(number)
                    received.signal()
                }
            } else {
                source.setEventHandler { @Sendable in onNotice(number) }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Blocks until one of the `stop` signals arrives and returns it; the signals stay ignored after.
    func wait() -> Int32 {
        received.wait()
        sources.forEach { $0.cancel() }
        return caught.value
    }

    /// `SIGTERM`, `SIGINT`, `SIGHUP`, or the number.
    static func name(_ number: Int32) -> String {
        switch number {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGHUP: "SIGHUP"
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
