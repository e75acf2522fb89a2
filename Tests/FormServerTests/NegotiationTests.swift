import HTTPServer
import Testing

@testable import FormServer

/// Which answers a client gets: JSON only when its `Accept` prefers `application/json` to HTML.
@Suite struct NegotiationTests {
    static func wants(_ accept: String?, contentType: String? = nil) -> Bool {
        var headers = HTTPHeaders()
        if let accept { headers.add("Accept", accept) }
        return Negotiation.wantsJSON(
            Request(method: .post, pathSegments: [], headers: headers), contentType: contentType)
    }

    @Test func browsersGetPagesAndAPIClientsJSON() {
        let chromium = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"
        #expect(!Self.wants(chromium))
        #expect(!Self.wants(nil))
        #expect(!Self.wants("*/*"))
        #expect(Self.wants("application/json"))
        #expect(Self.wants(" Application/JSON ; q=0.9 , text/html;q=0.5"))
        #expect(!Self.wants("application/json;q=0.5, text/html"))
        #expect(!Self.wants("application/json;q=0, text/html;q=0"))
        #expect(Self.wants("text/html;q=0.1;level=1, application/json; charset=utf-8"))
        #expect(Self.wants(nil, contentType: "application/json"))
        // A JSON body of a type the server does not read still gets its refusal in JSON.
        #expect(Self.wants(nil, contentType: "text/json"))
        #expect(Self.wants(nil, contentType: "application/vnd.api+json"))
        #expect(!Self.wants(nil, contentType: "application/jsonp"))
        #expect(!Self.wants(nil, contentType: "text/plain"))
    }

    @Test func theFirstMemberNamingATypeGivesItsQuality() {
        #expect(Negotiation.qualities(in: "text/html;q=0.2, text/html;q=0.9, application/json;q=0.5") == (0.5, 0.2))
        #expect(Negotiation.qualities(in: "application/json;Q=0.3") == (0.3, 0))
        #expect(Negotiation.qualities(in: "application/json;q=abc") == (1, 0))
        #expect(Negotiation.qualities(in: ",,") == (0, 0))
        #expect(Negotiation.qualities(in: "application/jsonx, xtext/html") == (0, 0))
    }
}
