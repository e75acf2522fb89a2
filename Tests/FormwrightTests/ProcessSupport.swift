import Foundation
import HTTPTestClient
import TestProcesses
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The repository root, found from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The product's `formwright` binary built beside the test bundle: the command line with no Swift hooks.
let formwrightBinary = builtBinary("formwright")

/// The examples' `formwright-examples` binary: the command line with the examples' hooks.
let examplesBinary = builtBinary("formwright-examples")

/// The executable `name` built beside the test bundle.
func builtBinary(_ name: String) -> URL {
    let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var directory = testBinary.deletingLastPathComponent()
    // The test bundle may be a directory (`FormwrightPackageTests.xctest/...`): walk up to the bin folder.
    while directory.path != "/" {
        let candidate = directory.appendingPathComponent(name)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            return candidate
        }
        directory = directory.deletingLastPathComponent()
    }
    return repositoryRoot.appendingPathComponent(".build/debug/\(name)")
}

/// A `formwright` process whose output is collected as it runs.
///
/// A thread of its own reads the output with blocking reads until end of file. Not
/// `FileHandle.readabilityHandler`: its dispatch source once crashed the whole test process in
/// libdispatch's manager thread (`_dispatch_event_loop_drain`), and a crash there fails every test.
final class FormwrightProcess: @unchecked Sendable {
    let process: ChildProcess
    private let collector = Collector()

    /// What the reader thread has read, and whether it reached the end.
    private final class Collector: @unchecked Sendable {
        let lock = NSLock()
        var data = Data()
        var finished = false
    }

    /// Starts `binary` (the product's, unless told) with `arguments`, in `directory` (the repository
    /// unless told). Unless `environment` says otherwise, `FORMWRIGHT_STORE=none`: a test that keeps
    /// submissions names its own store, and none is made in the repository.
    init(
        _ arguments: [String], environment: [String: String] = [:], binary: URL = formwrightBinary,
        directory: String = repositoryRoot.path
    ) throws {
        var variables = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FORMWRIGHT_") }
        variables["FORMWRIGHT_STORE"] = "none"
        variables.merge(environment) { $1 }
        let output = try closeOnExecPipe()
        defer { close(output.write) }
        do {
            process = try ChildProcess(
                binary.path, arguments, environment: variables, directory: directory,
                output: output.write, errors: output.write)
        } catch {
            close(output.read)
            throw error
        }
        // The parent's write end is closed once spawned (the `defer`), so the reads end when the child
        // does. The thread holds the read end and the collector, never `self`: a test that drops the
        // process still terminates it in `deinit`.
        let collector = collector
        let descriptor = output.read
        Thread {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                if count > 0 {
                    collector.lock.withLock { collector.data.append(contentsOf: buffer[..<count]) }
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            close(descriptor)
            collector.lock.withLock { collector.finished = true }
        }.start()
    }

    deinit {
        if process.isRunning {
            process.send(SIGTERM)
            // Reaped, bounded: a child left unreaped stays a zombie for the rest of the run.
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            if process.isRunning { process.send(SIGKILL) }
        }
    }

    var text: String { collector.lock.withLock { String(decoding: collector.data, as: UTF8.self) } }

    /// Waits, bounded, for the process to exit; returns its status, or nil if it is still running.
    func waitForExit(seconds: Double = 15) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        guard !process.isRunning else {
            process.send(SIGTERM)
            return nil
        }
        // The last output arrives with the end of the pipe (bounded: a child of the process may hold it).
        let end = Date().addingTimeInterval(2)
        while !collector.lock.withLock({ collector.finished }) && Date() < end { usleep(5_000) }
        return process.status(waiting: false)
    }

    /// The port from the `listening address=127.0.0.1:PORT` log line, once it appears.
    func listeningPort(seconds: Double = 15) -> Int? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let range = text.range(of: #"listening address=[^ ]*:(\d+)"#, options: .regularExpression) {
                return Int(text[range].split(separator: ":").last ?? "")
            }
            guard process.isRunning else { return nil }
            usleep(20_000)
        }
        return nil
    }

    func signal(_ number: Int32) { process.send(number) }
}

/// Runs `formwright` with `arguments` to completion and returns its exit status and output.
func runFormwright(
    _ arguments: [String], environment: [String: String] = [:], binary: URL = formwrightBinary
) throws -> (status: Int32?, output: String) {
    let process = try FormwrightProcess(arguments, environment: environment, binary: binary)
    let status = process.waitForExit()
    return (status, process.text)
}

/// Runs `formwright` with `arguments` and `input` on stdin, in the repository, to completion; returns
/// the exit status, stdout and stderr.
func runFormwright(
    _ arguments: [String], input: String, binary: URL = formwrightBinary
) throws -> (status: Int32, output: String, errors: String) {
    let stdin = try inputFile(Array(input.utf8))
    defer { close(stdin) }
    let stdout = try closeOnExecPipe()
    let stderr = try closeOnExecPipe()
    let process: ChildProcess
    do {
        defer {
            close(stdout.write)
            close(stderr.write)
        }
        process = try ChildProcess(
            binary.path, arguments, environment: ProcessInfo.processInfo.environment,
            directory: repositoryRoot.path, input: stdin, output: stdout.write, errors: stderr.write)
    } catch {
        close(stdout.read)
        close(stderr.read)
        throw error
    }
    // Standard error is read on a thread of its own while standard output is read here: a child that
    // fills one pipe while the other is being read would otherwise wait forever.
    let errors = ErrorsReader(stderr.read)
    let output = readToEnd(stdout.read)
    let status = process.waitUntilExit()
    return (status, String(decoding: output, as: UTF8.self), String(decoding: errors.wait(), as: UTF8.self))
}

/// Reads a descriptor to its end on a thread of its own.
private final class ErrorsReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var bytes: [UInt8] = []

    init(_ descriptor: Int32) {
        Thread { [self] in
            bytes = readToEnd(descriptor)
            done.signal()
        }.start()
    }

    /// The bytes read, once the end came.
    func wait() -> [UInt8] {
        done.wait()
        return bytes
    }
}

/// One HTTP/1.1 exchange over a loopback socket: the raw answer, up to the peer's close.
func exchange(port: Int, _ text: String) throws -> String {
    let connection = try RawConnection(port: port)
    try connection.send(text)
    return String(decoding: try connection.readToClose(), as: UTF8.self)
}

/// A temporary empty folder, removed by the caller.
func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("formwright-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The valid event submission the store tests post, as JSON, on a connection that closes after it.
let eventPost: String = {
    let event = #"{"title":"Lunch","starts":"2026-11-23T12:00","ends":"2026-11-23T13:00"}"#
    return "POST /forms/event HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(event.utf8.count)\r\nConnection: close\r\n\r\n\(event)"
}()

/// The id of a whole `200` answer to `eventPost` (its JSON ends `}}`), nil for anything else: a refusal,
/// or a connection cut short.
func keptID(_ answer: String) -> String? {
    guard answer.hasPrefix("HTTP/1.1 200"), answer.hasSuffix("}}"),
        let match = answer.firstMatch(of: /\{"id":"([0-9A-Z]{26})"/)
    else { return nil }
    return String(match.1)
}
