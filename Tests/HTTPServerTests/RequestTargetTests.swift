import HTTPTestClient
import Testing

@testable import HTTPServer

@Suite struct RequestTargetTests {
    @Test(arguments: [
        ("/", [String]()),
        ("/forms/event", ["forms", "event"]),
        ("/forms/event/", ["forms", "event"]),
        ("/a%20b/c%2Fd", ["a b", "c/d"]),
        ("/caf%C3%A9", ["café"]),
        ("/static/%2e%2e/secret", ["static", "..", "secret"]),
        ("http://example.com/x/y?z=1", ["x", "y"]),
    ])
    func segmentsAreDecodedOneByOne(target: String, segments: [String]) throws {
        #expect(try RequestTarget.parse(target).segments == segments)
    }

    @Test func queryIsDecodedWithPlusAsSpace() throws {
        let query = try RequestTarget.parse("/q?a=1&b=hello+world&c=%41%42&d=caf%C3%A9&flag&t=1&t=2").query
        #expect(query["a"] == "1")
        #expect(query["b"] == "hello world")
        #expect(query["c"] == "AB")
        #expect(query["d"] == "café")
        #expect(query["flag"] == "")
        #expect(query.values(for: "t") == ["1", "2"])
    }

    @Test(arguments: ["/%zz", "/%4", "/a%", "/%C3%28", "/q?x=%G1"])
    func malformedPercentEncodingIsRefused(target: String) {
        #expect(throws: RequestTarget.Failure.badPercentEncoding) { try RequestTarget.parse(target) }
    }

    @Test func encodedNulIsRefused() {
        #expect(throws: RequestTarget.Failure.nulByte) { try RequestTarget.parse("/static/forms.css%00.html") }
    }

    @Test(arguments: ["", "*", "forms/event", "ftp://host/x"])
    func targetsThatAreNotPathsAreRefused(target: String) {
        #expect(throws: RequestTarget.Failure.notOriginForm) { try RequestTarget.parse(target) }
    }

    @Test func urlencodedBodyParsesLikeAQuery() {
        let parameters = QueryParameters.parse(urlencoded: Array("title=Lunch+with+Ana&guests=3".utf8))
        #expect(parameters?["title"] == "Lunch with Ana")
        #expect(parameters?["guests"] == "3")
        #expect(QueryParameters.parse(urlencoded: Array("bad=%ZZ".utf8)) == nil)
    }
}
