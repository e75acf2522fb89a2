import Testing

@testable import HTTPServer

/// `QueryParameters.urlencoded`: what a page writes to post back to the address it came from.
@Suite struct QueryParametersTests {
    @Test func urlencodedTextReadsBackToTheSamePairs() throws {
        let pairs = QueryParameters([
            (name: "user", value: "ada lovelace"), (name: "a&b", value: "1=2"), (name: "user", value: "é/?#%+"),
            (name: "empty", value: ""), (name: "safe", value: "A-z_0.9*"),
        ])
        let text = pairs.urlencoded
        #expect(text == "user=ada+lovelace&a%26b=1%3D2&user=%C3%A9%2F%3F%23%25%2B&empty=&safe=A-z_0.9*")
        #expect(QueryParameters.parse(urlencoded: Array(text.utf8)) == pairs)
        #expect(QueryParameters().urlencoded == "")
    }
}
