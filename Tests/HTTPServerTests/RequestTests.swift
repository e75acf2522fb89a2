import Testing

@testable import HTTPServer

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct RequestCookieTests {
    private func request(_ cookieHeaders: [String]) -> Request {
        var headers = HTTPHeaders()
        for value in cookieHeaders { headers.add("Cookie", value) }
        return Request(method: .get, pathSegments: [], headers: headers)
    }

    /// `cookie(named:)` reads what the `cookies` table holds, for every shape a header can take.
    @Test(arguments: [
        ["theme=dark; session=abc123"], ["session=\"quoted\""], [" session = spaced ;x=1"], ["session"],
        ["session=first; session=second"], ["a=1", "session=in-second-header"], ["sessionx=1; xsession=2"],
        ["=; session=after-empty-name"], [],
    ])
    func cookieNamedAgreesWithTheTable(headers: [String]) {
        let request = request(headers)
        #expect(request.cookie(named: "session") == request.cookies["session"])
    }

    @Test func cookieValues() {
        #expect(request(["theme=dark; session=abc123"]).cookie(named: "session") == "abc123")
        #expect(request(["session=\"quoted\""]).cookie(named: "session") == "quoted")
        #expect(request(["session=first; session=second"]).cookie(named: "session") == "first")
        #expect(request(["other=1"]).cookie(named: "session") == nil)
    }
}

@Suite struct RequestContentTypeTests {
    @Test(
        arguments: [
            ("application/json", "application/json"), (" Application/JSON ; charset=utf-8", "application/json"),
            ("multipart/form-data; boundary=x", "multipart/form-data"), ("", nil), (" ; charset=utf-8", nil),
        ] as [(String, String?)])
    func mediaTypeIsLowercasedWithoutParameters(header: String, type: String?) {
        let request = Request(method: .post, pathSegments: [], headers: ["Content-Type": header])
        #expect(request.contentType == type)
    }
}

@Suite struct SocketAddressTests {
    @Test func ipv4IsDottedWithItsPort() {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(51022).bigEndian
        address.sin_addr.s_addr = UInt32(0x0A00_00FF).bigEndian  // 10.0.0.255
        let peer = withUnsafeBytes(of: &address) { SocketAddress($0.baseAddress!) }
        #expect(peer?.description == "10.0.0.255:51022")
        #expect(peer?.ip == "10.0.0.255")
    }

    /// The octets are written by hand, not by `inet_ntop`: every value, one to three digits, inner zeros.
    @Test func everyOctetIsWrittenInDecimal() {
        for octet in 0...255 {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(1).bigEndian
            address.sin_addr.s_addr = UInt32(octet * 0x0101_0101).bigEndian
            let peer = withUnsafeBytes(of: &address) { SocketAddress($0.baseAddress!) }
            #expect(peer?.description == "\(octet).\(octet).\(octet).\(octet):1")
        }
    }

    @Test func ipv6IsBracketedWithItsPort() {
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = UInt16(8080).bigEndian
        withUnsafeMutableBytes(of: &address.sin6_addr) { $0[15] = 1 }  // ::1
        let peer = withUnsafeBytes(of: &address) { SocketAddress($0.baseAddress!) }
        #expect(peer?.description == "[::1]:8080")
    }

    /// The longest texts an address has fit the room its value keeps for them, and a peer is equal to
    /// another (and hashes alike) by its address and port.
    @Test func theLongestTextsFitAndEqualityIsByAddressAndPort() throws {
        var full = sockaddr_in6()
        full.sin6_family = sa_family_t(AF_INET6)
        full.sin6_port = UInt16(65535).bigEndian
        withUnsafeMutableBytes(of: &full.sin6_addr) { $0.copyBytes(from: [UInt8](repeating: 0xAB, count: 16)) }
        let longest = try #require(withUnsafeBytes(of: &full) { SocketAddress($0.baseAddress!) })
        #expect(longest.description == "[abab:abab:abab:abab:abab:abab:abab:abab]:65535")
        var mapped = sockaddr_in6()
        mapped.sin6_family = sa_family_t(AF_INET6)
        mapped.sin6_port = UInt16(65535).bigEndian
        withUnsafeMutableBytes(of: &mapped.sin6_addr) {
            $0.copyBytes(from: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 255, 255, 255, 255])
        }
        let mappedPeer = try #require(withUnsafeBytes(of: &mapped) { SocketAddress($0.baseAddress!) })
        #expect(mappedPeer.description == "[::ffff:255.255.255.255]:65535")
        var written = [UInt8](repeating: 0, count: SocketAddress.maximumDescriptionLength)
        let count = written.withUnsafeMutableBufferPointer { longest.writeDescription(to: $0) }
        #expect(String(decoding: written[..<count], as: UTF8.self) == longest.description)

        var other = full
        other.sin6_port = UInt16(65534).bigEndian
        let otherPort = try #require(withUnsafeBytes(of: &other) { SocketAddress($0.baseAddress!) })
        let again = try #require(withUnsafeBytes(of: &full) { SocketAddress($0.baseAddress!) })
        #expect(again == longest)
        #expect(again.hashValue == longest.hashValue)
        #expect(otherPort != longest)
        #expect(Set([longest, again, otherPort, mappedPeer]).count == 3)
    }
}

@Suite struct ResponseBodyTests {
    @Test func concatenatedPartsAreCopiedInOrder() {
        let parts: [[UInt8]] = [Array("<p>".utf8), [], Array("token".utf8), Array("</p>".utf8)]
        let body = parts[0].withUnsafeBytes { a in
            parts[1].withUnsafeBytes { b in
                parts[2].withUnsafeBytes { c in
                    parts[3].withUnsafeBytes { d in ResponseBody(concatenating: a, b, c, d) }
                }
            }
        }
        #expect(body.bytes == Array("<p>token</p>".utf8))
        #expect(body.count == 12)
    }
}

@Suite struct LibraryPanicTests {
    /// Only the quiesce race's message is survived; libmicrohttpd spells it with and without a period.
    @Test func onlyTheQuiesceRaceIsSurvivable() {
        #expect(LibraryPanic.isSurvivable("Failed to remove listen FD from epoll set\n"))
        #expect(LibraryPanic.isSurvivable("Failed to remove listen FD from epoll set.\n"))
        #expect(!LibraryPanic.isSurvivable("Failed to signal quiesce via inter-thread communication channel"))
        #expect(!LibraryPanic.isSurvivable("Close socket failed.\n"))
        #expect(!LibraryPanic.isSurvivable(""))
    }
}

@Suite struct HTTPMethodTests {
    /// The request line's method as libmicrohttpd passes it: common tokens map to the constants, any
    /// other token (longer, shorter, lowercase) keeps its own text.
    @Test(arguments: [
        ("GET", HTTPMethod.get), ("POST", .post), ("HEAD", .head), ("PUT", .put), ("DELETE", .delete),
        ("GETX", HTTPMethod(rawValue: "GETX")), ("GE", HTTPMethod(rawValue: "GE")), ("G", HTTPMethod(rawValue: "G")),
        ("get", HTTPMethod(rawValue: "get")), ("POSTS", HTTPMethod(rawValue: "POSTS")), ("", HTTPMethod(rawValue: "")),
    ])
    func methodFromTheRequestLine(token: String, expected: HTTPMethod) {
        let method = token.withCString { HTTPMethod(cString: $0) }
        #expect(method == expected)
        #expect(method.rawValue == token)
    }
}

@Suite struct DecimalDigitsTests {
    @Test(arguments: [0, 7, 9, 10, 99, 100, 65535, 1_000_000, UInt(Int.max), UInt.max])
    func digitsMatchTheStandardLibrary(value: UInt) {
        var bytes = [UInt8](repeating: UInt8(ascii: "#"), count: 24)
        let end = bytes.withUnsafeMutableBufferPointer { DecimalDigits.write(value, into: $0, at: 2) }
        #expect(String(decoding: bytes[2..<end], as: UTF8.self) == String(value))
        #expect(
            bytes[..<2] == [UInt8(ascii: "#"), UInt8(ascii: "#")]
                && bytes[end...].allSatisfy { $0 == UInt8(ascii: "#") })
    }
}
