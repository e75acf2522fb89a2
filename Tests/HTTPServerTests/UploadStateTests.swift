import HTTPTestClient
import Testing

@testable import HTTPServer

@Suite struct UploadStateTests {
    private func verdict(
        _ method: HTTPMethod = .post, length: String? = nil, encoding: String? = nil, limit: Int = 100
    ) -> UploadState.HeadersVerdict {
        UploadState.checkHeaders(method: method, contentLength: length, transferEncoding: encoding, limit: limit)
    }

    @Test func lengthWithinTheLimitIsAccepted() {
        #expect(verdict(length: "100") == .accept(expectedLength: 100))
        #expect(verdict(length: nil) == .accept(expectedLength: nil))
        #expect(verdict(encoding: "chunked") == .accept(expectedLength: nil))
    }

    @Test func lengthOverTheLimitIsRefusedBeforeReading() {
        guard case .reject(let status, let message) = verdict(length: "101") else {
            Issue.record("accepted")
            return
        }
        #expect(status == .contentTooLarge)
        #expect(message.contains("101 bytes"))
    }

    @Test(arguments: [
        "abc", "-1", "+5", "1e3", "0x10", "99999999999999999999999", "9223372036854775808", "1 2", "", "  ", "٣",
        "5\u{0}",
    ])
    func malformedLengthIsABadRequest(length: String) {
        guard case .reject(let status, _) = verdict(length: length) else {
            Issue.record("accepted \(length)")
            return
        }
        #expect(status == .badRequest)
    }

    /// Digits between optional spaces and tabs (RFC 9110 §8.6); up to `Int.max`.
    @Test func lengthIsDigitsBetweenOptionalWhitespace() {
        #expect(verdict(length: " 42\t", limit: 100) == .accept(expectedLength: 42))
        #expect(verdict(length: "007", limit: 100) == .accept(expectedLength: 7))
        #expect(UploadState.byteCount("9223372036854775807") == Int.max)
        #expect(UploadState.byteCount("0") == 0)
    }

    @Test func bothFramingHeadersAreRefused() {
        guard case .reject(.badRequest, _) = verdict(length: "5", encoding: "chunked") else {
            Issue.record("accepted TE + CL")
            return
        }
    }

    @Test func transferCodingsOtherThanChunkedAreRefused() {
        guard case .reject(.badRequest, _) = verdict(encoding: "gzip") else {
            Issue.record("accepted gzip")
            return
        }
        guard case .reject(.notImplemented, _) = verdict(encoding: "gzip, chunked") else {
            Issue.record("accepted gzip, chunked")
            return
        }
    }

    @Test func bodyOnGetIsRefused() {
        guard case .reject(.badRequest, _) = verdict(.get, length: "5") else {
            Issue.record("accepted a GET body")
            return
        }
        #expect(verdict(.get, length: "0") == .accept(expectedLength: 0))
    }

    @Test func chunkedBodyPastTheLimitIsDiscardedThenAbandoned() {
        var upload = UploadState(limit: 100, deadlineSeconds: 30, now: 0)
        let keptFirst = upload.receive(60, now: 1)
        #expect(keptFirst)
        #expect(upload.phase == .receiving)
        let keptSecond = upload.receive(60, now: 2)
        #expect(!keptSecond)
        #expect(upload.phase == .discarding)
        let keptThird = upload.receive(upload.hardLimit, now: 3)
        #expect(!keptThird)
        #expect(upload.phase == .abandoned)
    }

    /// Short while its `Content-Length` is not all in: the server then looks whether the client left.
    /// A chunked body is never short: its end is libmicrohttpd's to find.
    @Test func aContentLengthBodyIsShortUntilWhole() {
        var upload = UploadState(limit: 100, deadlineSeconds: 30, now: 0, expectedLength: 10)
        #expect(upload.isShort)
        _ = upload.receive(4, now: 1)
        #expect(upload.isShort)
        _ = upload.receive(6, now: 2)
        #expect(!upload.isShort)
        var chunked = UploadState(limit: 100, deadlineSeconds: 30, now: 0)
        _ = chunked.receive(4, now: 1)
        #expect(!chunked.isShort)
    }

    @Test func uploadPastItsDeadlineIsAbandoned() {
        var upload = UploadState(limit: 100, deadlineSeconds: 2, now: 1_000)
        let inTime = upload.receive(1, now: 1_000 + 1_000_000_000)
        let late = upload.receive(1, now: 1_000 + 3_000_000_000)
        #expect(inTime)
        #expect(!late)
        #expect(upload.phase == .abandoned)
    }
}
