import FormEngine
import Testing

@Suite("E-mail and URL syntax agree with the WHATWG standards")
struct WebSyntaxTests {
    /// What a URL corpus case should produce; `.invalid` matches any reason.
    enum ExpectedVerdict: Sendable, Equatable {
        case valid
        case notAbsolute
        case schemeNotAllowed(String)
        case invalid

        init(_ verdict: URLSyntax.Verdict) {
            switch verdict {
            case .valid: self = .valid
            case .notAbsolute: self = .notAbsolute
            case .schemeNotAllowed(let scheme): self = .schemeNotAllowed(scheme)
            case .invalid: self = .invalid
            }
        }
    }

    /// One URL corpus case: the text, the schemes allowed, and the expected verdict.
    struct URLCase: Sendable, CustomTestStringConvertible {
        let text: String
        let allowedSchemes: [String]
        let expected: ExpectedVerdict

        init(_ text: String, _ expected: ExpectedVerdict, allowing allowedSchemes: [String] = ["http", "https"]) {
            self.text = text
            self.expected = expected
            self.allowedSchemes = allowedSchemes
        }

        var testDescription: String { "\(text.debugDescription) allowing \(allowedSchemes)" }
    }

    static let label63 = String(repeating: "a", count: 63)
    static let label64 = String(repeating: "a", count: 64)
    // Swift string literals reject noncharacters such as U+FDD0, so this one is built from its scalar.
    static let noncharacter = String(String.UnicodeScalarView([Unicode.Scalar(0xFDD0 as UInt32)].compactMap { $0 }))

    // MARK: - E-mail (HTML Living Standard, "valid email address")

    static let validEmails: [String] = [
        "simple@example.com",
        "a@b",  // no dot needed in the domain
        "very.common@example.com",
        "x@example.com",
        "disposable.style.email.with+symbol@example.com",
        "other.email-with-hyphen@example.com",
        "user.name+tag+sorting@example.com",
        "example-indeed@strange-example.com",
        "admin@mailserver1",
        "!#$%&'*+/=?^_`{|}~-@example.org",  // every atext symbol
        ".leading.dot@example.com",  // 1*( atext / "." ) allows dots anywhere
        "trailing.dot.@example.com",
        "two..dots@example.com",
        ".@example.com",
        "UPPER@EXAMPLE.COM",
        "1234567890@123.456",  // all-digit labels are let-dig strings
        "a@\(label63)",
        "a@\(label63).\(label63).com",
        "user@sub.domain.example.co.uk",
        "a@b-c.d",
        "a@1-2",
        "a@b--c.com",  // inner hyphens, even doubled, are ldh-str
        "slash/in/local@example.com",
        "\(String(repeating: "x", count: 10_000))@example.com",  // no local-part length limit in HTML
    ]

    static let invalidEmails: [String] = [
        "",
        "@example.com",
        "user@",
        "user",
        "user@@example.com",
        "a@b@c",
        "\"quoted\"@example.com",
        "a@-b.com",
        "a@b-.com",
        "a@b..com",
        "a@.b.com",
        "a@b.com.",
        "a@\(label64)",
        "a@example.\(label64)",
        " a@b.com",
        "a@b.com ",
        "a b@c.com",
        "user@exa mple.com",
        "ü@example.com",
        "user@exämple.com",
        "user@例子.测试",
        "user@[127.0.0.1]",
        "user@example.com\n",
        "a(comment)@example.com",
        "a,b@example.com",
        "a@b_c.com",
        "a@b:25",
        "a\u{0}@b.com",
        "a;b@c",
        "a@b/c",
        "a<b>@c.com",
        "a\\b@c.com",
        "a@b\u{200B}c.com",  // zero-width space
    ]

    @Test("valid e-mail addresses are accepted", arguments: validEmails)
    func validEmailIsAccepted(_ text: String) {
        #expect(EmailSyntax.isValid(text))
    }

    @Test("invalid e-mail addresses are rejected", arguments: invalidEmails)
    func invalidEmailIsRejected(_ text: String) {
        #expect(!EmailSyntax.isValid(text))
    }

    // MARK: - URL (URL Standard, "absolute-URL-with-fragment string")

    static let urlCases: [URLCase] = [
        // Valid http(s) URLs.
        URLCase("https://example.com", .valid),
        URLCase("http://example.com/", .valid),
        URLCase("HTTPS://EXAMPLE.COM", .valid),
        URLCase("hTTp://Example.Com/Path", .valid),
        URLCase("https://example.com/a/b?c=d&e=f#g", .valid),
        URLCase("http://[::1]:8080/x", .valid),
        URLCase("http://[::]/", .valid),
        URLCase("http://[2001:db8::1]/", .valid),
        URLCase("http://[2001:DB8:0:0:8:800:200C:417A]", .valid),
        URLCase("http://[1:2:3:4:5:6:7::]", .valid),
        URLCase("http://[::ffff:192.0.2.1]/", .valid),
        URLCase("http://[1:2:3:4:5:6:7:8]", .valid),
        URLCase("http://[1:2:3:4:5:6:1.2.3.4]", .valid),
        URLCase("http://[::1.2.3.4]", .valid),
        URLCase("HTTP://[FE80::1]:443", .valid),
        URLCase("http://127.0.0.1/", .valid),
        URLCase("http://0.0.0.0:80", .valid),
        URLCase("http://255.255.255.255", .valid),
        URLCase("http://例子.测试", .valid),
        URLCase("http://例子。测试", .valid),  // UTS #46 maps U+3002 to "."
        URLCase("https://bücher.example/", .valid),
        URLCase("https://ＥＸＡＭＰＬＥ.com", .valid),  // fullwidth forms map to ASCII
        URLCase("https://xn--fsqu00a.xn--0zwm56d/", .valid),
        URLCase("https://\(String(repeating: "例", count: 57)).example", .valid),  // xn-- form is 63 long
        URLCase("https://\(String(repeating: "a", count: 55))ü.example", .valid),  // xn-- form is 63 long
        URLCase("https://example.com:65535/", .valid),
        URLCase("https://example.com:0", .valid),
        URLCase("https://example.com:/", .valid),  // "A URL-port string must be … the empty string"
        URLCase("https://example.com:0080", .valid),  // leading zeros still denote a 16-bit integer
        URLCase("https://example.com:", .valid),
        URLCase("https://ÜBER.example", .valid),
        URLCase("https://example.com/%20space", .valid),
        URLCase("https://example.com/a%2Fb", .valid),
        URLCase("https://example.com/path?q=a/b?c", .valid),
        URLCase("https://example.com/#frag?x/y", .valid),
        URLCase("https://example.com/ü/日本", .valid),  // non-ASCII scalars are URL code points
        URLCase("https://example.com/a\u{A0}b", .valid),  // so is U+00A0, which is not ASCII whitespace
        URLCase("https://example.com/./a/../b", .valid),
        URLCase("https://example.com?x", .valid),
        URLCase("https://example.com#", .valid),
        URLCase("https://example.com/~user/!$&'()*+,;=:@", .valid),
        URLCase("http://localhost", .valid),
        URLCase("https://a.b.c.d.e.example", .valid),
        URLCase("https://1.2.3.4.example", .valid),
        URLCase("https://123.example", .valid),
        URLCase("https://\(label63).com", .valid),
        URLCase("https://\(Array(repeating: label63, count: 4).joined(separator: ".").dropLast(2))", .valid),
        // Not absolute: no scheme at all.
        URLCase("", .notAbsolute),
        URLCase("//example.com", .notAbsolute),
        URLCase("/path/only", .notAbsolute),
        URLCase("example.com", .notAbsolute),
        URLCase("?q=1", .notAbsolute),
        URLCase("#frag", .notAbsolute),
        URLCase("../relative", .notAbsolute),
        URLCase("1http://example.com", .notAbsolute),  // a scheme starts with an ASCII alpha
        URLCase(":example", .notAbsolute),
        // Well-formed schemes that are not allowed, reported before anything else.
        URLCase("javascript:alert(1)", .schemeNotAllowed("javascript")),
        URLCase("JavaScript:alert(1)", .schemeNotAllowed("javascript")),
        URLCase("data:text/html,<script>alert(1)</script>", .schemeNotAllowed("data")),
        URLCase("vbscript:msgbox", .schemeNotAllowed("vbscript")),
        URLCase("ftp://example.com", .schemeNotAllowed("ftp")),
        URLCase("mailto:ada@example.com", .schemeNotAllowed("mailto")),
        URLCase("file:///etc/passwd", .schemeNotAllowed("file")),
        URLCase("ws://example.com", .schemeNotAllowed("ws")),
        URLCase("localhost:8080", .schemeNotAllowed("localhost")),  // parsers read "localhost" as the scheme
        URLCase("http://example.com", .schemeNotAllowed("http"), allowing: ["https"]),
        // Invalid: spaces, controls, bad characters.
        URLCase("https://example.com/a b", .invalid),
        URLCase("http://exa mple.com", .invalid),
        URLCase(" https://example.com", .invalid),
        URLCase("https://example.com ", .invalid),
        URLCase("https://example.com\n", .invalid),
        URLCase("https://exa\tmple.com", .invalid),
        URLCase("https://example.com/\u{7F}", .invalid),
        URLCase("https://example.com/\u{85}", .invalid),  // C1 control
        URLCase("https://example.com\\path", .invalid),
        URLCase("https://example.com/<script>", .invalid),
        URLCase("https://example.com/a|b", .invalid),
        URLCase("https://example.com/\"quoted\"", .invalid),
        URLCase("https://example.com/a#b#c", .invalid),
        URLCase("https://example.com/%zz", .invalid),
        URLCase("https://example.com/%4", .invalid),
        URLCase("https://example.com/%", .invalid),
        URLCase("https://example.com/\(noncharacter)", .invalid),
        // Invalid: structure after the scheme.
        URLCase("http:example.com", .invalid),
        URLCase("http:/example.com", .invalid),
        URLCase("http:///example.com", .invalid),
        URLCase("http://", .invalid),
        URLCase("https://?q", .invalid),
        URLCase("https://:443", .invalid),
        // Invalid: credentials and ports.
        URLCase("http://user:pass@example.com", .invalid),
        URLCase("http://user@example.com", .invalid),
        URLCase("http://@example.com", .invalid),
        URLCase("http://example.com:99999", .invalid),
        URLCase("http://example.com:65536", .invalid),
        URLCase("http://example.com:8o", .invalid),
        URLCase("http://example.com:-1", .invalid),
        // Invalid: hosts.
        URLCase("http://256.1.1.1", .invalid),
        URLCase("http://1.2.3", .invalid),
        URLCase("http://1.2.3.4.5", .invalid),
        URLCase("http://01.2.3.4", .invalid),
        URLCase("http://example.123", .invalid),
        URLCase("http://example.0x1f", .invalid),
        URLCase("http://-example.com", .invalid),
        URLCase("http://example-.com", .invalid),
        URLCase("http://ab--cd.example", .invalid),
        URLCase("http://xn--.example", .invalid),
        URLCase("http://exa_mple.com", .invalid),
        URLCase("http://exa*mple.com", .invalid),
        URLCase("http://ex%41mple.com", .invalid),
        URLCase("http://example..com", .invalid),
        URLCase("http://.example.com", .invalid),
        URLCase("http://example.com.", .invalid),
        URLCase("http://\(label64).com", .invalid),
        URLCase("https://\(Array(repeating: label63, count: 4).joined(separator: ".").dropLast(1))", .invalid),
        URLCase("https://\(String(repeating: "例", count: 58)).example", .invalid),  // xn-- form is 64 long
        URLCase("https://\(String(repeating: "a", count: 56))ü.example", .invalid),  // xn-- form is 64 long
        URLCase("https://☕.example", .invalid),  // symbols are outside the letter/digit repertoire
        URLCase("https://\u{301}abc.example", .invalid),  // a label may not start with a combining mark
        URLCase("https://exa\u{200D}mple.com", .invalid),  // zero-width joiner
        URLCase("http://[::1", .invalid),
        URLCase("http://[1::1::1]", .invalid),
        URLCase("http://[1:2:3:4:5:6:7:8:9]", .invalid),
        URLCase("http://[1:2:3:4:5:6:7:8::]", .invalid),
        URLCase("http://[::1]x", .invalid),
        URLCase("http://[:1]", .invalid),
        URLCase("http://[1:]", .invalid),
        URLCase("http://[1:2:3]", .invalid),
        URLCase("http://[12345::]", .invalid),
        URLCase("http://[::ffff:127.0.0.256]", .invalid),
        URLCase("http://[::ffff:127.00.0.1]", .invalid),
        URLCase("http://[1:2:3:4:5:6:7:1.2.3.4]", .invalid),
        URLCase("http://[fe80::1%25eth0]", .invalid),
        URLCase("http://[example.com]", .invalid),
        // Other allowed schemes.
        URLCase("mailto:ada@example.com", .valid, allowing: ["mailto"]),
        URLCase("MAILTO:ada@example.com?subject=Hi%20there", .valid, allowing: ["mailto"]),
        URLCase("mailto:", .valid, allowing: ["mailto"]),
        URLCase("mailto:a b@example.com", .invalid, allowing: ["mailto"]),
        URLCase("mailto:<ada@example.com>", .invalid, allowing: ["mailto"]),
        URLCase("urn:isbn:9780307476463", .valid, allowing: ["urn"]),
        URLCase("ftp://ftp.example.com/pub/file.txt", .valid, allowing: ["ftp"]),
        URLCase("wss://example.com:443/socket", .valid, allowing: ["ws", "wss"]),
        URLCase("https://example.com", .valid, allowing: ["HTTPS"]),
        URLCase("file:///etc/passwd", .valid, allowing: ["file"]),
        URLCase("file:///C:/Windows", .valid, allowing: ["file"]),
        URLCase("file:///", .valid, allowing: ["file"]),
        URLCase("file://localhost/etc/hosts?x#y", .valid, allowing: ["file"]),
        URLCase("file://server/share/file.txt", .valid, allowing: ["file"]),
        URLCase("file://server:21/x", .invalid, allowing: ["file"]),
        URLCase("file://server/C:/x", .invalid, allowing: ["file"]),
        URLCase("file:/etc/passwd", .invalid, allowing: ["file"]),
        URLCase("file://", .invalid, allowing: ["file"]),
        URLCase("ssh://user@example.org", .invalid, allowing: ["ssh"]),
        URLCase("foo://[::1]:99/x", .valid, allowing: ["foo"]),
        URLCase("foo://host_name.local/x", .valid, allowing: ["foo"]),  // opaque hosts are not domains
        URLCase("foo:///path", .valid, allowing: ["foo"]),
        URLCase("foo://exa[mple.org", .invalid, allowing: ["foo"]),
        URLCase("foo://:99", .invalid, allowing: ["foo"]),
    ]

    @Test("each URL gets its expected verdict", arguments: urlCases)
    func urlGetsExpectedVerdict(_ testCase: URLCase) {
        let verdict = URLSyntax.check(testCase.text, allowedSchemes: testCase.allowedSchemes)
        #expect(ExpectedVerdict(verdict) == testCase.expected, "got \(verdict)")
    }

    @Test("an invalid URL always carries a reason", arguments: urlCases.filter { $0.expected == .invalid })
    func invalidURLHasReason(_ testCase: URLCase) throws {
        let verdict = URLSyntax.check(testCase.text, allowedSchemes: testCase.allowedSchemes)
        guard case .invalid(let reason) = verdict else {
            Issue.record("expected .invalid, got \(verdict)")
            return
        }
        #expect(!reason.isEmpty)
    }

    @Test("reasons name the actual problem")
    func reasonsNameTheProblem() {
        #expect(reason("http://user:pass@example.com").contains("password"))
        #expect(reason("http://example.com:99999").contains("65535"))
        #expect(reason("http:example.com").contains("//"))
        #expect(reason("https://example.com/a b").contains("U+0020"))
        #expect(reason("https://example.com/%zz").contains("%"))
        #expect(reason("http://256.1.1.1").contains("IPv4"))
        #expect(reason("http://[1::1::1]").contains("IPv6"))
        #expect(reason("https://example.com\\path").contains("backslash"))
    }

    @Test("the verdict says whether it is valid")
    func verdictReportsValidity() {
        #expect(URLSyntax.check("https://example.com").isValid)
        #expect(!URLSyntax.check("javascript:alert(1)").isValid)
        #expect(!URLSyntax.check("").isValid)
    }

    @Test("the default allowed schemes are http and https")
    func defaultSchemesAreHTTPAndHTTPS() {
        #expect(URLSyntax.check("http://example.com") == .valid)
        #expect(URLSyntax.check("https://example.com") == .valid)
        #expect(URLSyntax.check("ftp://example.com") == .schemeNotAllowed("ftp"))
    }

    @Test("long inputs are checked whole")
    func longInputsAreCheckedWhole() {
        let path = String(repeating: "a/", count: 100_000)
        #expect(URLSyntax.check("https://example.com/" + path) == .valid)
        #expect(URLSyntax.check("https://example.com/" + path + " ") != .valid)
        #expect(!EmailSyntax.isValid(String(repeating: "a", count: 100_000) + "@" + String(repeating: "-", count: 100)))
    }

    private func reason(_ text: String) -> String {
        guard case .invalid(let reason) = URLSyntax.check(text) else { return "" }
        return reason
    }
}
