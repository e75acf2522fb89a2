import Foundation
import HTTPTestClient
import Synchronization
import Testing

@testable import HTTPServer

/// `Response.streamed`: a body made while it is sent, chunked, its maker released once sent.
@Suite struct StreamedBodyTests {
    /// How many makers were released.
    final class Count: Sendable {
        let value = Atomic<Int>(0)
    }

    /// 2,000 lines of 100 bytes, in pieces of 20 lines: larger than libmicrohttpd's 64 KiB a read, so
    /// pieces are split across reads and reads across pieces.
    private static func lines(_ routes: inout RouterBuilder, released: @escaping @Sendable () -> Void) {
        routes.get("/lines") { _ in
            var next = 0
            let guardian = Guardian(released)
            return .streamed(.ok, headers: ["Content-Type": "text/plain"]) { bytes in
                _ = guardian
                for _ in 0..<20 where next < 2_000 {
                    bytes += Array(String(format: "%099d\n", next).utf8)
                    next += 1
                }
                return next < 2_000
            }
        }
        routes.get("/broken") { _ in
            var pieces = 0
            return .streamed(.ok, headers: ["Content-Type": "text/plain"]) { bytes in
                pieces += 1
                guard pieces < 3 else { throw CancellationError() }
                bytes += Array(repeating: UInt8(ascii: "x"), count: 1000)
                return true
            }
        }
    }

    /// Runs `released` when dropped.
    final class Guardian: @unchecked Sendable {
        let released: @Sendable () -> Void
        init(_ released: @escaping @Sendable () -> Void) { self.released = released }
        deinit { released() }
    }

    @Test func aStreamedBodyArrivesWholeChunkedAndItsMakerIsReleased() async throws {
        let released = Count()
        try await withServer(routes: { Self.lines(&$0) { released.value.add(1, ordering: .relaxed) } }) {
            server in
            let response = try request(server.port, "/lines")
            #expect(response.status == 200)
            #expect(response.header("Transfer-Encoding") == "chunked")
            #expect(response.header("Content-Length") == nil)
            let lines = response.text.split(separator: "\n")
            #expect(lines.count == 2_000)
            #expect(lines.first == Substring(String(format: "%099d", 0)))
            #expect(lines.last == Substring(String(format: "%099d", 1_999)))
            #expect(eventually { released.value.load(ordering: .relaxed) == 1 })
        }
    }

    /// A maker that fails midway cuts the response: the chunked body never gets its last chunk, so the
    /// client knows it is not whole.
    @Test func aFailingMakerCutsTheBodyShort() async throws {
        try await withServer(routes: { Self.lines(&$0) {} }) { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /broken HTTP/1.1\r\nHost: x\r\n\r\n")
            let raw = String(decoding: try connection.readToClose(), as: UTF8.self)
            #expect(raw.hasPrefix("HTTP/1.1 200"))
            #expect(raw.contains("\r\n\r\n3E8\r\n"))  // a first chunk of 1,000 bytes
            #expect(!raw.hasSuffix("0\r\n\r\n"))
        }
    }
}
