import FormEngine
import Testing

@Suite struct JSONBodyTests {
    @Test func nestedTenThousandDeepIsRefusedQuickly() {
        let body = #"{"a":"# + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}"
        #expect(throws: JSONBodyError.self) { try JSONBody.parse(Array(body.utf8)) }
        do {
            _ = try JSONBody.parse(Array(body.utf8))
        } catch {
            #expect(error.message.contains("nested deeper"))
        }
    }

    @Test(arguments: [
        "", "[]", "{", #"{"a":1,}"#, #"{"a":01}"#, #"{"a":1}x"#, #"{"a":"\u00"}"#, #"{"a":"\ud800"}"#,
        #"{"a":1,"a":2}"#, "{\"a\":\"\u{01}\"}", #"{"a":tru}"#, #"{a:1}"#, #"{"a":.5}"#,
    ])
    func malformedBodiesAreRefused(body: String) {
        #expect(throws: JSONBodyError.self) { try JSONBody.parse(Array(body.utf8)) }
    }

    @Test func escapesAndNumbersAreRead() throws {
        let fields = try JSONBody.parse(Array(#"{"t":"a\"b\u00e9\ud83d\ude00","n":-1.50e2,"b":false,"z":null}"#.utf8))
        #expect(fields["t"] == [.text("a\"bé😀")])
        #expect(fields["n"] == [.number("-1.50e2")])
        #expect(fields["b"] == [.bool(false)])
        #expect(fields["z"] == [.null])
        #expect(fields.isJSON)
    }

    @Test func outputEscapesScriptEndingCharacters() {
        #expect(JSONValue.string("</script>&\"\n").text == #""\u003c/script\u003e\u0026\"\n""#)
    }

    @Test func aValueIsReadWholeObjectsIncludedInTheOrderWritten() throws {
        let text = #"{"z":{"b":[1,2.50,{"c":null}],"a":true},"t":"a\u00e9","n":-1e3}"#
        let value = try JSONValue(parsing: Array(text.utf8))
        #expect(value["z"]?["b"] == .array([.number("1"), .number("2.50"), .object([("c", .null)])]))
        #expect(value["t"] == .string("aé"))
        #expect(value.text == #"{"z":{"b":[1,2.50,{"c":null}],"a":true},"t":"aé","n":-1e3}"#)
        #expect(try JSONValue(parsing: Array(" [false] ".utf8)) == .array([.bool(false)]))
    }

    @Test(arguments: [
        "", "{", #"{"a":1,}"#, #"{"a":1}x"#, #"{"a":1,"a":2}"#, #"{"a":{"b":1,"b":2}}"#, "[1,]", "tru",
        String(repeating: "[", count: 33) + String(repeating: "]", count: 33),
    ])
    func aValueIsReadAsStrictlyAsASubmission(text: String) {
        #expect(throws: JSONBodyError.self) { try JSONValue(parsing: Array(text.utf8)) }
    }
}
