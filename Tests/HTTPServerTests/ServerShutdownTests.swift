import Foundation
import HTTPTestClient
import Synchronization
import Testing

@testable import HTTPServer

@Suite struct ServerShutdownTests {
    private func startServer(_ extra: (inout RouterBuilder) -> Void = { _ in }) throws -> Server {
        var routes = RouterBuilder()
        standardRoutes(&routes)
        extra(&routes)
        let server = Server(configuration: .testing(), router: routes.freeze())
        try server.start()
        return server
    }

    @Test func shutdownDrainsARequestStillUploading() async throws {
        let server = try startServer()
        try await offPool {
            let connection = try RawConnection(port: server.port)
            try connection.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nhello")
            try #require(eventually { server.requestsInFlight == 1 })

            let drained = Atomic<Int>(-1)
            let stopper = Thread {
                drained.store(server.shutdown(gracePeriod: .seconds(5)) ? 1 : 0, ordering: .relaxed)
            }
            stopper.start()
            try #require(eventually { server.draining.load(ordering: .relaxed) })
            // The request in flight completes, told that the connection closes.
            try connection.send("world")
            let response = try connection.readResponse()
            #expect(response.text == "helloworld")
            #expect(response.header("Connection") == "close")
            #expect(eventually { drained.load(ordering: .relaxed) == 1 })
            // Stopped: nothing answers on the port any more.
            let late = try? RawConnection(port: server.port, timeout: 1)
            #expect(
                (try? late?.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")).flatMap { try? late?.readResponse() } == nil
            )
        }
    }

    @Test func shutdownWaitsForAnAsyncHandler() async throws {
        let server = try startServer()
        try await offPool {
            let connection = try RawConnection(port: server.port, timeout: asyncAnswerTimeout)
            try connection.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
            try #require(eventually { server.requestsInFlight == 1 })
            #expect(server.shutdown(gracePeriod: .seconds(asyncAnswerTimeout)))
            #expect(try connection.readResponse().text == "slow done")
        }
    }

    @Test func shutdownPastTheGracePeriodAnswersSuspendedRequests503() async throws {
        let server = try startServer { routes in
            routes.on(
                .get, "/forever",
                async: { _ in
                    try? await Task.sleep(for: .seconds(30))
                    return .text(.ok, "too late")
                })
        }
        try await offPool {
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /forever HTTP/1.1\r\nHost: x\r\n\r\n")
            try #require(eventually { server.requestsInFlight == 1 })
            #expect(server.shutdown(gracePeriod: .milliseconds(200)) == false)
            #expect(try connection.readResponse().status == 503)
        }
    }

    /// A request whose body is still arriving at the deadline is answered 503 too, at once: libmicrohttpd
    /// calls no handler of it until more bytes come, and closed it at the stop without a word.
    @Test func shutdownPastTheGracePeriodAnswersARequestStillSendingItsBody503() async throws {
        let server = try startServer()
        try await offPool {
            let connection = try RawConnection(port: server.port)
            try connection.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n0123456789")
            try #require(eventually { server.requestsInFlight == 1 })
            #expect(server.shutdown(gracePeriod: .milliseconds(200)) == false)
            let response = try connection.readResponse()
            #expect(response.status == 503)
            #expect(response.text.contains("the server is shutting down"))
            #expect(response.header("Connection") == "close")
            #expect(try connection.readToClose().isEmpty)
        }
    }

    @Test func idleKeepAliveConnectionDoesNotDelayShutdown() async throws {
        let server = try startServer()
        try await offPool {
            let idle = try RawConnection(port: server.port)
            try idle.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try idle.readResponse()
            // The socket stays open and idle: not a request in flight, so the drain ends at once.
            #expect(eventually { server.requestsInFlight == 0 })
            #expect(server.shutdown(gracePeriod: .seconds(5)))
            #expect(idle.closesConnection())
        }
    }
}
