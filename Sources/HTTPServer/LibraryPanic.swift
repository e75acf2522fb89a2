private import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// libmicrohttpd's panic handler, installed once per process before the first daemon starts.
///
/// libmicrohttpd 0.9.75 has an open race between `MHD_quiesce_daemon` and its epoll worker threads:
/// both remove the listening socket from the same epoll set, and whichever loses gets `ENOENT` and
/// panics with "Failed to remove listen FD from epoll set", which aborts the process in the middle of
/// a graceful shutdown (seen in this package's tests: SIGTERM under load ending in SIGABRT). The
/// loser's goal — the socket out of the set — is already reached, and the library marks the socket
/// as out right after the panic call returns, so for that one message returning is safe. Every other
/// panic keeps the library's default: print and abort.
enum LibraryPanic {
    /// Installs the handler; later calls do nothing.
    static func install() { _ = installed }

    private static let installed: Void = { MHD_set_panic_func(handlePanic, nil) }()

    /// The message of the quiesce race, as libmicrohttpd's sources spell it (with or without a period).
    static let quiesceRace = "Failed to remove listen FD from epoll set"

    /// Whether a panic with `reason` may be survived.
    static func isSurvivable(_ reason: String) -> Bool { reason.hasPrefix(quiesceRace) }
}

private let handlePanic: MHD_PanicCallback = { _, file, line, reason in
    let text = reason.map { String(cString: $0) } ?? ""
    if LibraryPanic.isSurvivable(text) { return }
    let place = file.map { String(cString: $0) } ?? "?"
    let message = Array("Fatal error in libmicrohttpd \(place):\(line): \(text)\n".utf8)
    _ = message.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    abort()
}
