import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with `posix_spawn`, for the tests that run the `formwright` binary.
///
/// Not Foundation's `Process`: on Linux it watches its children through libdispatch, and crashes in
/// libdispatch's manager thread under such watching are known (`_dispatch_event_loop_drain`); one here
/// kills the whole test process, every test with it. A child here is watched with `waitpid` alone.
public final class ChildProcess: @unchecked Sendable {
    public let pid: pid_t
    /// The exit status once the child has been reaped, under `lock`: whichever call reaps it keeps it.
    private var reaped: Int32?
    private let lock = NSLock()

    /// Runs `executable` with `arguments` and exactly `environment`, in `directory`. `input`, `output`
    /// and `errors` become its descriptors 0, 1 and 2 (the test process's own when nil); no other
    /// descriptor of the test process reaches it, so a socket or pipe a test closes is closed.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String], directory: String,
        input: Int32? = nil, output: Int32? = nil, errors: Int32? = nil
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let standard = [input, output, errors]
        for (target, source) in standard.enumerated() {
            if let source { posix_spawn_file_actions_adddup2(&actions, source, Int32(target)) }
        }
        // Every other descriptor open now is closed in the child (glibc skips those closed meanwhile);
        // those opened between this listing and the spawn carry O_CLOEXEC where tests open them.
        for descriptor in Self.openDescriptors() where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        // `env -C` changes the directory and then execs the binary: glibc 2.36 has
        // posix_spawn_file_actions_addchdir_np, but Swift's Glibc module does not show it.
        let argv = ["/usr/bin/env", "-C", directory, executable] + arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }
        var child = pid_t()
        let result = withCStrings(argv) { argv in
            withCStrings(envp) { envp in posix_spawn(&child, "/usr/bin/env", &actions, nil, argv, envp) }
        }
        guard result == 0 else {
            throw ChildProcessError(description: "posix_spawn \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
    }

    /// Whether the child has not exited yet (it is reaped here once it has).
    public var isRunning: Bool { status(waiting: false) == nil }

    /// Waits for the child to exit and returns its status (see `status(waiting:)`). `send` waits meanwhile.
    public func waitUntilExit() -> Int32 { status(waiting: true) ?? -1 }

    /// The exit code, or the number of the signal that ended the child (as `Process` reports them);
    /// nil while it runs, unless `waiting`.
    public func status(waiting: Bool) -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        if let reaped { return reaped }
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, waiting ? 0 : WNOHANG)
            if result == 0 { return nil }
            if result < 0 && errno == EINTR { continue }
            guard result == pid else { return nil }
            break
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (they are macros).
        let signal = status & 0x7F
        reaped = signal == 0 ? (status >> 8) & 0xFF : signal
        return reaped
    }

    /// Sends `signal` to the child, unless it has been reaped (its pid may belong to another by then).
    public func send(_ signal: Int32) {
        lock.lock()
        defer { lock.unlock() }
        if reaped == nil { kill(pid, signal) }
    }

    /// The descriptors open in this process.
    private static func openDescriptors() -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap { Int32($0) }
    }
}

/// Both ends of a new pipe, closed on exec: a child gets only the end it is given.
public func closeOnExecPipe() throws -> (read: Int32, write: Int32) {
    var ends: [Int32] = [-1, -1]
    // pipe2(O_CLOEXEC) is not in Swift's Glibc module, so the flag is set right after. A child another
    // test spawns meanwhile is given neither end all the same if its spawn listed the open descriptors
    // after this call (`ChildProcess` closes what it did not give); only one listed in that instant
    // before could keep an end, and the pipe's reader would then wait for that child to exit too.
    guard pipe(&ends) == 0 else { throw ChildProcessError(description: "pipe failed") }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return (ends[0], ends[1])
}

/// Reads `descriptor` to its end and closes it.
public func readToEnd(_ descriptor: Int32) -> [UInt8] {
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = read(descriptor, &buffer, buffer.count)
        if count > 0 {
            bytes.append(contentsOf: buffer[..<count])
        } else if count < 0 && errno == EINTR {
            continue
        } else {
            return bytes
        }
    }
}

/// A descriptor to give a child as its standard input, holding `bytes`: a file already unlinked, not
/// a pipe, so a child that exits before reading it all cannot end the test process with SIGPIPE.
public func inputFile(_ bytes: [UInt8]) throws -> Int32 {
    var template = Array("/tmp/formwright-input-XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { throw ChildProcessError(description: "mkstemp failed") }
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else {
            close(descriptor)
            throw ChildProcessError(description: "could not write the child's input")
        }
        offset += written
    }
    lseek(descriptor, 0, SEEK_SET)
    return descriptor
}

public struct ChildProcessError: Error, CustomStringConvertible {
    public let description: String
}

/// `strings` as a NULL-terminated array of C strings, for the duration of `body`.
private func withCStrings<T>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> T) -> T {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return body(pointers)
}
