import Foundation
import HTTPTestClient
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The repository root, found from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The `formwright` binary built beside the test bundle.
let formwrightBinary: URL = {
    let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var directory = testBinary.deletingLastPathComponent()
    // The test bundle may be a directory (`FormwrightPackageTests.xctest/...`): walk up to the bin folder.
    while directory.path != "/" {
        let candidate = directory.appendingPathComponent("formwright")
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            return candidate
        }
        directory = directory.deletingLastPathComponent()
    }
    return repositoryRoot.appendingPathComponent(".build/debug/formwright")
}()

/// A `formwright` process whose output is collected as it runs.
final class FormwrightProcess: @unchecked Sendable {
    let process = Process()
    private let output = Pipe()
    private let lock = NSLock()
    private var collected = Data()

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = formwrightBinary
        process.arguments = arguments
        var variables = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FORMWRIGHT_") }
        variables.merge(environment) { $1 }
        process.environment = variables
        process.currentDirectoryURL = repositoryRoot
        process.standardOutput = output
        process.standardError = output
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.withLock { self.collected.append(data) }
        }
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
        output.fileHandleForReading.readabilityHandler = nil
    }

    var text: String { lock.withLock { String(decoding: collected, as: UTF8.self) } }

    /// Waits, bounded, for the process to exit; returns its status, or nil if it is still running.
    func waitForExit(seconds: Double = 15) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        guard !process.isRunning else {
            process.terminate()
            return nil
        }
        usleep(50_000)  // let the last output arrive
        return process.terminationStatus
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

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }
}

/// Runs `formwright` with `arguments` to completion and returns its exit status and output.
func runFormwright(
    _ arguments: [String], environment: [String: String] = [:]
) throws -> (status: Int32?, output: String) {
    let process = try FormwrightProcess(arguments, environment: environment)
    let status = process.waitForExit()
    return (status, process.text)
}

/// Runs `formwright` with `arguments` and `input` on stdin, in the repository; returns the exit status,
/// stdout and stderr.
func runFormwright(_ arguments: [String], input: String) throws -> (status: Int32, output: String, errors: String) {
    let process = Process()
    process.executableURL = formwrightBinary
    process.arguments = arguments
    process.currentDirectoryURL = repositoryRoot
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    let errors = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
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
