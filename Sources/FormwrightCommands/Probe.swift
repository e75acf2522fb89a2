import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `formwright probe URL`: exits 0 when an HTTP GET of URL answers 2xx. The container's HEALTHCHECK
/// uses it, so the runtime image needs no curl.
struct Probe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check that a Formwright server answers (for container health checks).",
        discussion: "Sends GET to an http:// URL on a numeric IPv4 host; exits 0 on a 2xx status, 1 otherwise."
    )

    @Argument(
        help: ArgumentHelp(
            "The URL to fetch, e.g. http://127.0.0.1:8080/healthz.",
            discussion: "Without it: /healthz on 127.0.0.1 at FORMWRIGHT_PORT (8080 when unset), the port "
                + "`serve` listens on when given the same environment, as in the container."))
    var url: String?

    @Option(help: "Seconds to wait for the answer.")
    var timeout: Int = 3

    func run() throws {
        let url = self.url ?? Self.defaultURL(environment: ProcessInfo.processInfo.environment)
        guard let target = ProbeTarget(url) else {
            throw ValidationError("'\(url)' is not an http://IPv4:port/path URL")
        }
        let status = target.fetchStatus(timeoutSeconds: timeout)
        guard let status, (200..<300).contains(status) else {
            print("unhealthy: \(status.map { "status \($0)" } ?? "no answer") from \(url)")
            throw ExitCode(1)
        }
        print("healthy: status \(status) from \(url)")
    }
}

extension Probe {
    /// `/healthz` on 127.0.0.1 at the port `serve` reads from the same environment.
    static func defaultURL(environment: [String: String]) -> String {
        let port = environment["FORMWRIGHT_PORT"].flatMap { UInt16($0) } ?? 8080
        return "http://127.0.0.1:\(port)/healthz"
    }
}

/// An `http://a.b.c.d:port/path` URL, taken apart.
struct ProbeTarget {
    let host: String
    let port: UInt16
    let path: String

    init?(_ url: String) {
        guard url.hasPrefix("http://") else { return nil }
        let rest = url.dropFirst("http://".count)
        let authority = rest.prefix { $0 != "/" }
        path = rest.count > authority.count ? String(rest.dropFirst(authority.count)) : "/"
        let parts = authority.split(separator: ":")
        guard parts.count <= 2, let first = parts.first else { return nil }
        host = String(first)
        guard let port = parts.count == 2 ? UInt16(parts[1]) : 80 else { return nil }
        self.port = port
    }

    /// The status code of a GET, or nil when there is no well-formed answer in time.
    func fetchStatus(timeoutSeconds: Int) -> Int? {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { return nil }
        defer { close(socketFD) }
        var wait = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socketFD, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return nil }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return nil }
        let request = "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n"
        guard send(socketFD, request, request.utf8.count, 0) == request.utf8.count else { return nil }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = recv(socketFD, &buffer, buffer.count, 0)
        guard count >= 12 else { return nil }
        // "HTTP/1.1 200 ..."
        let line = String(decoding: buffer[0..<count], as: UTF8.self)
        let fields = line.split(separator: " ", maxSplits: 2)
        guard fields.count >= 2, fields[0].hasPrefix("HTTP/") else { return nil }
        return Int(fields[1])
    }
}
