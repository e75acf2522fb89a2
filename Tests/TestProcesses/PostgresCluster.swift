import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real PostgreSQL server for the tests: a cluster made with Debian's `initdb` in a temporary
/// folder, listening on a free loopback port and a socket in that folder, with trust authentication
/// for its one user, `formwright`. `shared` is started once per test process; every cluster is
/// stopped, its folder removed, when the process exits (or, should it crash, by a watching shell
/// within a second). A test that stops the server itself makes a cluster of its own. As root, the server's programs run as the `postgres` user, since they refuse root.
public final class PostgresCluster: Sendable {
    /// The cluster the tests share, started at first use.
    public static let shared: Result<PostgresCluster, PostgresClusterError> = Result {
        () throws(PostgresClusterError) in
        let cluster = try PostgresCluster()
        sharedForExit = cluster
        atexit { PostgresCluster.sharedForExit?.remove() }
        return cluster
    }
    nonisolated(unsafe) private static var sharedForExit: PostgresCluster?

    /// The loopback port the server listens on.
    public let port: Int
    /// The cluster's folder: data, socket and log.
    public let folder: URL
    private let bin: String

    /// Makes and starts a cluster; throws, saying what failed, when PostgreSQL is not installed or the
    /// server does not start.
    public init() throws(PostgresClusterError) {
        bin = try Self.binaries()
        folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("fw-pg-\(UUID().uuidString)")
        port = Self.freePort()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch { throw PostgresClusterError("cannot make \(folder.path): \(error)") }
        if getuid() == 0 { try run("/bin/chown", ["-R", "postgres", folder.path], asPostgres: false) }
        try run(
            "\(bin)/initdb",
            ["-D", data, "-U", "formwright", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"])
        try start()
        try watch()
    }

    /// Starts a shell that stops the server and removes its folder once this process is gone, however
    /// it ended: a test process that crashes leaves no server behind.
    private func watch() throws(PostgresClusterError) {
        let stop = "\(bin)/pg_ctl -D \(data) -m immediate stop"
        // A zombie counts as gone: the process that would reap it may be waiting for the watcher.
        let script = """
            while grep -qs '^State:[^Z]*$' /proc/\(getpid())/status; do sleep 1; done
            \(getuid() == 0 ? "/usr/sbin/runuser -u postgres -- " : "")\(stop) >/dev/null 2>&1
            rm -rf \(folder.path)
            """
        // Given none of this process's output: `swift test` reads that to its end before it ends.
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { close(null) }
        do {
            _ = try ChildProcess(
                "/bin/sh", ["-c", script], environment: ["PATH": "/usr/bin:/bin"], directory: "/", input: null,
                output: null, errors: null)
        } catch {
            throw PostgresClusterError("cannot start the cluster's watcher: \(error)")
        }
    }

    private var data: String { folder.appendingPathComponent("data").path }

    /// A URL of a new, empty database on this server.
    public func newDatabase() throws(PostgresClusterError) -> String {
        let name = "fw_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try run(
            "\(bin)/psql",
            [
                "-h", "127.0.0.1", "-p", "\(port)", "-U", "formwright", "-d", "postgres",
                "-q", "-c", "CREATE DATABASE \(name)",
            ])
        return url(of: name)
    }

    /// The URL of database `name` on this server.
    public func url(of name: String) -> String { "postgres://formwright@127.0.0.1:\(port)/\(name)" }

    /// Starts the server and waits until it accepts connections.
    public func start() throws(PostgresClusterError) {
        let options = "-p \(port) -c listen_addresses=127.0.0.1 -k \(folder.path) -c max_connections=200"
        try run(
            "\(bin)/pg_ctl",
            ["-D", data, "-o", options, "-l", folder.appendingPathComponent("log").path, "-w", "-t", "60", "start"])
    }

    /// Stops the server at once, as a crash or a pulled cable would (`immediate`): every connection drops.
    public func stop() throws(PostgresClusterError) {
        try run("\(bin)/pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
    }

    /// Stops the server, if it runs, and removes the cluster's folder.
    public func remove() {
        try? stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs `program` with `arguments` to its end (as `postgres` when this is root and `asPostgres`);
    /// throws with its output when it fails. A `ChildProcess`, not Foundation's `Process`, whose wait
    /// on Linux lasts as long as any descendant lives, and the server pg_ctl starts lives on.
    private func run(_ program: String, _ arguments: [String], asPostgres: Bool = true) throws(PostgresClusterError) {
        let command = asPostgres && getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--", program] : [program]
        let text: String
        let status: Int32
        do {
            let output = try closeOnExecPipe()
            let child = try ChildProcess(
                command[0], Array(command.dropFirst()) + arguments,
                environment: ["PATH": "/usr/bin:/bin", "LANG": "C"], directory: "/", output: output.write,
                errors: output.write)
            close(output.write)
            text = String(decoding: readToEnd(output.read), as: UTF8.self)
            status = child.waitUntilExit()
        } catch {
            throw PostgresClusterError("cannot run \(program): \(error)")
        }
        guard status == 0 else {
            throw PostgresClusterError("\(program) \(arguments.joined(separator: " ")) failed: \(text)")
        }
    }

    /// The folder of PostgreSQL's server programs, as `pg_config` names it.
    private static func binaries() throws(PostgresClusterError) -> String {
        let candidates = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard let version = candidates.compactMap(Int.init).max(),
            FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\(version)/bin/initdb")
        else {
            throw PostgresClusterError(
                "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): scripts/install-deps.sh --test installs it"
            )
        }
        return "/usr/lib/postgresql/\(version)/bin"
    }

    /// A loopback port no one listens on now: the kernel's choice for a socket bound to port 0.
    private static func freePort() -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(socket, pointer, length)
                return getsockname(socket, pointer, &length)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Why a test cluster could not be made, started or stopped.
public struct PostgresClusterError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
