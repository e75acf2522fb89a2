import Foundation
import HTTPTestClient
import Testing

@testable import FormServer

/// How values are read, over a real socket: what an API client sends and what comes back.
@Suite struct SubmittedValuesTests {
    @Test func blankTextComesBackAsNull() async throws {
        let spaces = String(repeating: " ", count: 900_000)
        let body = String(validEventJSON.dropLast()) + #","notes":"\#(spaces)","location":" \t "}"#
        let response = try await withFormServer(maxBody: 2 << 20) { port in try postJSON(port, "event", body) }
        #expect(response.status == 200)
        #expect(response.text.contains(#""location":null"#))
        #expect(response.text.contains(#""notes":null}"#))
        #expect(response.text.count < 1_000)
    }

    @Test func multivaluedListDropsEmptyItemsBeforeItsCap() async throws {
        let empties = Array(repeating: #""""#, count: 13).joined(separator: ",")
        let blanks = Array(repeating: #"" ""#, count: 101).joined(separator: ",")
        let (kept, flood) = try await withFormServer { port in
            (
                try postJSON(port, "multivalued", #"{"tags":["1","   ","# + empties + #","b"]}"#),
                try postJSON(port, "multivalued", #"{"tags":["# + blanks + "]}")
            )
        }
        #expect(kept.status == 200)
        #expect(kept.text.hasPrefix(#"{"httpParameters":{"tags":["1","b"]}"#))
        #expect(flood.status == 422)
        #expect(flood.text.contains(#""code":"tooManyItemsSent""#))
    }

    @Test func integerRowsTakeAnyNotationOfAWholeNumber() async throws {
        let body = String(validEventJSON.dropLast(2))  // without `8}`
        let (typed, json, beyond) = try await withFormServer { port in
            (
                try postJSON(port, "event", body + #""1e1"}"#),
                try postJSON(port, "event", body + "10.0}"),
                try postJSON(port, "event", body + "1e19}")
            )
        }
        #expect(typed.status == 200)
        #expect(typed.text.contains(#""guests":10,"#))
        #expect(json.status == 200)
        #expect(json.text.contains(#""guests":10,"#))
        #expect(beyond.status == 422)
        #expect(beyond.text.contains(#""code":"integerOutOfRange""#))
    }

    @Test func decimalsAreNeverTruncated() async throws {
        let (long, tiny, exact) = try await withFormServer { port in
            (
                try postJSON(port, "inputs", #"{"decimal":"12345678901234567890123456789012345678901234567890"}"#),
                try postJSON(port, "inputs", #"{"decimal":1e-130}"#, headers: ["Accept-Language": "zh-CN"]),
                try postJSON(port, "inputs", #"{"decimal":"12345678901234567890123456789012345678"}"#)
            )
        }
        #expect(long.status == 422)
        #expect(long.text.contains(#""code":"inexactDecimal""#))
        #expect(long.text.contains("Price cannot be kept exactly"))
        #expect(tiny.status == 422)
        #expect(tiny.text.contains("Price无法精确保存"))
        #expect(exact.status == 200)
        #expect(exact.text.contains(#""decimal":12345678901234567890123456789012345678}"#))
    }

    @Test func theKindSentIsNamedInTheReadersLanguage() async throws {
        let (chinese, english) = try await withFormServer { port in
            (
                try postJSON(port, "inputs", #"{"text":[1]}"#, headers: ["Accept-Language": "zh-CN"]),
                try postJSON(port, "inputs", #"{"text":[1]}"#)
            )
        }
        #expect(chinese.status == 422)
        #expect(chinese.text.contains(#""message":"Text不能是列表""#))
        #expect(english.text.contains(#""message":"Text cannot be a list""#))
    }
}
