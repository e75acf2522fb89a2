// A blocking loopback HTTP/1.1 client for end-to-end tests, shared by every test target that talks
// to a real server: raw bytes on a real socket, every read and write bounded in time.
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A failure of the test client, with what it was doing.
public struct ClientError: Error, CustomStringConvertible {
    public let description: String

    /// A failure described in words.
    public init(description: String) { self.description = description }
}

/// One parsed HTTP response as the test client read it off the socket.
public struct TestResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// A blocking loopback TCP client speaking raw HTTP/1.1, so tests can send exactly the bytes they mean,
/// malformed ones included. Every read and write is bounded by `timeout`.
/// `@unchecked Sendable`: a test uses one connection from one thread at a time.
public final class RawConnection: @unchecked Sendable {
    public let descriptor: Int32
    private var pending: [UInt8] = []

    public init(port: Int, timeout: Double = 5) throws {
        // The descriptor is stored only once connected: a class whose init throws after every stored
        // property is set still runs deinit, which would close the number a second time, possibly
        // after another thread (a server's connection) was given it.
        // Closed on exec: a `formwright` child a test starts must not hold a test's connection open.
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socketFD >= 0 else { throw ClientError(description: "socket() failed") }
        var wait = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
        setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socketFD, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(socketFD)
            throw ClientError(description: "connect to port \(port) failed: errno \(code)")
        }
        descriptor = socketFD
    }

    deinit { close(descriptor) }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw ClientError(description: "send failed: errno \(errno)") }
            offset += sent
        }
    }

    /// Reads more bytes; nil when the peer closed the connection (or reset it).
    private func fill() throws -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        if count > 0 {
            pending.append(contentsOf: buffer[0..<count])
            return true
        }
        if count == 0 || errno == ECONNRESET { return false }
        throw ClientError(description: "recv timed out or failed: errno \(errno)")
    }

    /// Reads one response. `bodyless` for answers to HEAD, whose Content-Length describes a body not sent.
    public func readResponse(bodyless: Bool = false) throws -> TestResponse {
        while true {
            if let end = pending.firstRange(of: Array("\r\n\r\n".utf8)) {
                let head = String(decoding: pending[0..<end.lowerBound], as: UTF8.self)
                pending.removeFirst(end.upperBound)
                var lines = head.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst().split(separator: " ")
                guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
                    throw ClientError(description: "bad status line in \(head)")
                }
                let headers = lines.compactMap { line -> (name: String, value: String)? in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    return (
                        String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    )
                }
                var response = TestResponse(status: status, headers: headers, body: [])
                if bodyless || status == 304 || status == 204 { return response }
                if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
                    response.body = try readChunked()
                } else if let length = response.header("Content-Length").flatMap(Int.init) {
                    while pending.count < length {
                        guard try fill() else { throw ClientError(description: "closed mid-body") }
                    }
                    response.body = Array(pending[0..<length])
                    pending.removeFirst(length)
                }
                return response
            }
            guard try fill() else { throw ClientError(description: "connection closed before a response") }
        }
    }

    private func readChunked() throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            while pending.firstRange(of: Array("\r\n".utf8)) == nil {
                guard try fill() else { throw ClientError(description: "closed") }
            }
            let lineEnd = pending.firstRange(of: Array("\r\n".utf8))!
            let size = Int(String(decoding: pending[0..<lineEnd.lowerBound], as: UTF8.self), radix: 16) ?? 0
            pending.removeFirst(lineEnd.upperBound)
            while pending.count < size + 2 { guard try fill() else { throw ClientError(description: "closed") } }
            body.append(contentsOf: pending[0..<size])
            pending.removeFirst(size + 2)
            if size == 0 { return body }
        }
    }

    /// Every byte the peer sends until it closes the connection, raw: for a request that asked for
    /// `Connection: close`, when the test wants the answer exactly as it came off the wire.
    public func readToClose() throws -> [UInt8] {
        while try fill() {}
        defer { pending.removeAll() }
        return pending
    }

    /// Whether the server closes the connection (EOF or reset) before `timeout` passes.
    public func closesConnection() -> Bool {
        do {
            while try fill() { pending.removeAll() }
            return true
        } catch {
            return false
        }
    }
}

/// Seconds a request made with `request(...)` waits for its answer. A bound, not a measure of speed:
/// an answer that comes from an async handler (a hook that awaits, a submission written to disk) waits
/// for a thread of Swift's cooperative pool, two threads here, which the whole suite's tests share as
/// they run in parallel, and on a loaded machine its turn can come after several seconds. These
/// requests always expect an answer, so the bound only decides how long a failure takes to show.
public let answerTimeout: Double = 30

/// Sends one request on a new connection and reads the answer.
public func request(_ port: Int, _ target: String, headers: [String: String] = [:]) throws -> TestResponse {
    try request(port, "GET", target, headers: headers)
}

/// Sends one request with `method` on a new connection and reads the answer.
public func request(
    _ port: Int, _ method: String, _ target: String, headers: [String: String] = [:], body: String? = nil
) throws -> TestResponse {
    let connection = try RawConnection(port: port, timeout: answerTimeout)
    var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    for (name, value) in headers { text += "\(name): \(value)\r\n" }
    if let body { text += "Content-Length: \(body.utf8.count)\r\n" }
    text += "\r\n" + (body ?? "")
    try connection.send(text)
    return try connection.readResponse(bodyless: method == "HEAD")
}

/// Sends one request whose body is raw bytes (a file's, say) on a new connection and reads the answer.
public func request(
    _ port: Int, _ method: String, _ target: String, headers: [String: String] = [:], bytes: [UInt8]
) throws -> TestResponse {
    let connection = try RawConnection(port: port, timeout: answerTimeout)
    var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    for (name, value) in headers { text += "\(name): \(value)\r\n" }
    text += "Content-Length: \(bytes.count)\r\n\r\n"
    try connection.send(Array(text.utf8) + bytes)
    return try connection.readResponse()
}

/// Runs blocking `body` on a thread of its own and waits for it without holding a cooperative thread.
///
/// `body` runs within the calling task (on a task executor that gives each job a new thread), so its
/// task-locals carry over: an `#expect` inside it is recorded against the running test, where on a
/// bare `Thread` it would be recorded against no test at all.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withTaskExecutorPreference(ThreadPerJob.shared) { try body() }
}

/// A task executor that runs each job on a new thread: blocking work (sockets, child processes) then
/// never occupies one of the few threads of Swift's cooperative pool.
private final class ThreadPerJob: TaskExecutor {
    static let shared = ThreadPerJob()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread { job.runSynchronously(on: executor) }.start()
    }
}

/// Polls `condition` until it holds or `seconds` pass: a bounded wait, not a timing assertion.
public func eventually(within seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}
