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

    /// The visitor sees what `parse` collects: empty pairs skipped, a name with no `=`, `=` in a value,
    /// repeated names in order.
    @Test func pairsAreVisitedInOrderAsParsed() {
        let body = Array("a=1&&b&c=x%3Dy=z&a=%E2%9C%93+2&=e".utf8)
        var visited: [String] = []
        #expect(QueryParameters.forEachPair(urlencoded: body) { visited.append("\($0)|\($1)") })
        #expect(visited == ["a|1", "b|", "c|x=y=z", "a|✓ 2", "|e"])
        #expect(QueryParameters.parse(urlencoded: body)?.pairs.map { "\($0.name)|\($0.value)" } == visited)
    }

    /// A malformed pair stops the walk with false, after the pairs before it.
    @Test func aMalformedPairStopsTheVisit() {
        for body in ["a=1&b=%2&c=3", "a=1&b=%C3%28&c=3", "a=1&b%00=2&c=3"] {
            var visited: [String] = []
            #expect(!QueryParameters.forEachPair(urlencoded: Array(body.utf8)) { name, _ in visited.append(name) })
            #expect(visited == ["a"], "\(body)")
        }
    }
}
