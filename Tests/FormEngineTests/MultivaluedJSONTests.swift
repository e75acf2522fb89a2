import FormEngine
import FormModel
import Testing

/// A JSON client sends a multivalued section's items as a list; anything else in its place is the
/// section's `wrongType`, as a list sent for a text row is that row's.
@Suite struct MultivaluedJSONTests {
    static func json(_ value: RawValue) -> SubmittedFields {
        var fields = SubmittedFields()
        fields.isJSON = true
        fields.append("tags", value)
        return fields
    }

    @Test(arguments: [
        (RawValue.text("swift"), "text"), (.number("3"), "a number"), (.bool(true), "true or false"),
        (.object, "an object"),
    ])
    func aValueThatIsNotAListIsTheSectionsWrongType(sent: RawValue, named: String) throws {
        let verdict = Fixtures.engine("multivalued").evaluate(Self.json(sent))
        let error = try #require(verdict.errors.first { $0.tag == "tags" })
        #expect(error.code == "wrongType")
        #expect(error.message.hasSuffix("cannot be \(named)"))
        #expect(verdict.items.values.allSatisfy { $0.isEmpty })
    }

    @Test func aListAndNullAreRead() {
        let listed = Fixtures.engine("multivalued").evaluate(Self.json(.list([.text("swift")])))
        #expect(!listed.errors.contains { $0.tag == "tags" })
        let none = Fixtures.engine("multivalued").evaluate(Self.json(.null))
        #expect(!none.errors.contains { $0.tag == "tags" })
    }
}
