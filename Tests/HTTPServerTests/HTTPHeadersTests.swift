import Testing

@testable import HTTPServer

/// `HTTPHeaders` keeps its fields as bytes: what goes in must come out the same, in order, found by
/// name whatever its case.
@Suite struct HTTPHeadersTests {
    @Test func fieldsComeBackInOrderAndAreFoundWhateverTheCase() {
        var headers: HTTPHeaders = ["Content-Type": "text/html", "Set-Cookie": "a=1"]
        headers.add("set-cookie", "b=2")
        headers.add("X-Empty", "")
        headers.add("X-Text", "日本語 ✓")
        #expect(headers.count == 5)
        #expect(headers.fields.map(\.name) == ["Content-Type", "Set-Cookie", "set-cookie", "X-Empty", "X-Text"])
        #expect(headers["CONTENT-TYPE"] == "text/html")
        #expect(headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
        #expect(headers["x-empty"] == "")
        #expect(headers["X-Text"] == "日本語 ✓")
        #expect(headers["Content-Typ"] == nil)
        #expect(!headers.contains("Vary"))
        #expect(Array(headers).count == 5)
    }

    @Test func settingReplacesEveryFieldOfTheNameAndKeepsTheOthersInOrder() {
        var headers: HTTPHeaders = ["A": "1", "B": "2"]
        headers.add("a", "3")
        headers["A"] = "4"
        #expect(headers.fields.map { "\($0.name)=\($0.value)" } == ["B=2", "A=4"])
        headers["b"] = nil
        #expect(headers.fields.map { "\($0.name)=\($0.value)" } == ["A=4"])
        headers["Missing"] = nil
        #expect(headers.count == 1)
    }

    @Test func equalityComparesNamesAndValuesInOrder() {
        let one: HTTPHeaders = ["A": "1", "B": "2"]
        #expect(one == ["A": "1", "B": "2"])
        #expect(one != ["B": "2", "A": "1"])
        #expect(one != ["a": "1", "B": "2"])
        #expect(HTTPHeaders() == [:])
    }

    /// The server adds libmicrohttpd's C strings as they are; libmicrohttpd reads them back the same way.
    @Test func cStringsGoInAndComeOutNulTerminated() {
        var headers = HTTPHeaders()
        "Cookie".withCString { name in "session=abc; theme=dark".withCString { headers.add(cName: name, cValue: $0) } }
        "X-Nothing".withCString { headers.add(cName: $0, cValue: nil) }
        headers.add("Accept", "*/*")
        #expect(headers["cookie"] == "session=abc; theme=dark")
        #expect(headers["X-Nothing"] == "")
        var seen: [String] = []
        let stopped = headers.forEachCField { name, value in
            seen.append(String(cString: name) + ": " + String(cString: value))
            return true
        }
        #expect(stopped == nil)
        #expect(seen == ["Cookie: session=abc; theme=dark", "X-Nothing: ", "Accept: */*"])
        let refused = headers.forEachCField { name, _ in String(cString: name) != "X-Nothing" }
        #expect(refused == "X-Nothing")
    }

    /// A field name's bytes are a token's (RFC 9110 §5.6.2): `tchar` is exactly letters, digits and
    /// the fifteen marks below, of all 256 byte values.
    @Test func tokenBytesAreExactlyTheRFCsTchar() {
        let tchar = Set("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(isTokenByte(byte) == tchar.contains(byte), "byte \(byte)")
        }
    }
}
