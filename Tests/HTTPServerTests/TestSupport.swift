import Foundation
import HTTPTestClient
import Testing

@testable import HTTPServer

#if canImport(Glibc)
    import Glibc
#endif

extension ServerConfiguration {
    /// Loopback, a port the kernel picks, two workers, small limits that tests can reach.
    static func testing(maxBody: Int = 1024, threads: Int = 2) -> ServerConfiguration {
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.threads = threads
        configuration.maxBodySize = maxBody
        configuration.perIPConnectionLimit = 0
        configuration.connectionTimeout = 5
        return configuration
    }
}

/// Runs `body` against a started server and shuts it down on every path.
///
/// `body` blocks on sockets, so it runs on a thread of its own: on the cooperative pool (two threads
/// on a two-core machine) blocked tests would starve the tasks that async handlers run on.
func withServer<T: Sendable>(
    _ configuration: ServerConfiguration = .testing(), routes build: (inout RouterBuilder) -> Void,
    _ body: @escaping @Sendable (Server) throws -> T
) async throws -> T {
    var routes = RouterBuilder()
    build(&routes)
    let server = Server(configuration: configuration, router: routes.freeze())
    try server.start()
    let outcome: Result<T, any Error>
    do { outcome = .success(try await offPool { try body(server) }) } catch { outcome = .failure(error) }
    // Off the pool too: a shutdown waits for requests in flight, and an async handler's task needs a
    // thread of the pool to finish; shutdowns blocking both of its threads would starve every such task.
    _ = try? await offPool { server.shutdown(gracePeriod: .seconds(3)) }
    return try outcome.get()
}

/// Seconds a test waits for an async handler's answer: `answerTimeout` (see there why it is generous).
let asyncAnswerTimeout = answerTimeout

/// Routes most tests share: echo of parameters, query, headers and body.
func standardRoutes(_ routes: inout RouterBuilder) {
    routes.get("/hello") { _ in .text(.ok, "hello") }
    routes.get("/items/{id}") { request in .text(.ok, "item \(request.parameters["id"] ?? "?")") }
    routes.get("/files/{name}.json") { request in .text(.ok, "json \(request.parameters["name"] ?? "?")") }
    routes.get("/files/{rest...}") { request in .text(.ok, "rest \(request.parameters["rest"] ?? "?")") }
    routes.get("/query") { request in .text(.ok, request.query.map { "\($0.name)=\($0.value)" }.joined(separator: ";"))
    }
    routes.get("/header") { request in .text(.ok, request.headers["x-test"] ?? "none") }
    routes.get("/cookie") { request in .text(.ok, request.cookies["session"] ?? "none") }
    routes.post("/echo") { request in
        Response(
            status: .ok, headers: ["Content-Type": "application/octet-stream"], body: ResponseBody(bytes: request.body))
    }
    routes.on(
        .get, "/slow",
        async: { _ in
            try? await Task.sleep(for: .milliseconds(300))
            return .text(.ok, "slow done")
        })
}
