import FormEngine
import FormModel
import Testing

/// An error on an item of a multivalued section names the item as its page labels it ("Address 2"),
/// in every language, so the error summary's links can be told apart. The JSON tag stays `tags[1]`.
@Suite struct ItemMessageTests {
    /// The reviewer's `mvd` list of addresses, plus a list whose validator brings its own message and
    /// one whose items have no title.
    static let engine: FormEngine = {
        let text = """
            id: mvd
            sections:
              - title: Tags
                multivaluedTag: tags
                multivaluedOptions: [insert, delete, reorder]
                maxRows: 4
                rowTemplate: { type: email, title: Address, validators: [{ kind: minLength, value: 6 }] }
                rows:
                  - { type: email, title: Address, value: a@b.co }
              - title: Codes
                multivaluedTag: codes
                multivaluedOptions: [insert]
                rowTemplate: { type: text, title: Code, validators: [{ kind: regex, pattern: "[A-Z]+", message: Use capitals }] }
              - title: Counts
                multivaluedTag: counts
                multivaluedOptions: [insert]
                rowTemplate: { type: integer }
            """
        do {
            let form = try FormLoader().load(text, file: "mvd.yaml", defaultID: "mvd").get()
            return FormEngine(form: try FormCompiler().compile(form, file: "mvd.yaml"))
        } catch { fatalError("the fixture must load: \(error)") }
    }()

    @Test func eachItemsErrorNamesItsItem() {
        let verdict = Self.engine.evaluate(
            Fixtures.post([("tags", "a@b.co"), ("tags", "no-at-sign"), ("tags", "x@y.zz"), ("tags", "also-bad")]))
        #expect(
            verdict.errors.map(\.message) == [
                "Address 2 must be a valid email address", "Address 4 must be a valid email address",
            ])
        #expect(verdict.errors.map(\.tag) == ["tags[1]", "tags[3]"])
        #expect(verdict.errors.map(\.position) == [1, 3])
    }

    @Test func chineseMessagesNameTheItemToo() {
        let verdict = Self.engine.evaluate(
            Fixtures.post([("tags", "bad-one"), ("tags", "worse-one")]), locale: "zh-Hans")
        #expect(verdict.errors.map(\.message) == ["Address 1必须是有效的电子邮件地址", "Address 2必须是有效的电子邮件地址"])
    }

    /// A validator's own message does not name the item: the item's name comes before it.
    @Test func aValidatorsOwnMessageIsPrefixedWithTheItem() {
        let verdict = Self.engine.evaluate(Fixtures.post([("codes", "ABC"), ("codes", "abc"), ("codes", "x")]))
        #expect(verdict.errors.map(\.message) == ["Code 2: Use capitals", "Code 3: Use capitals"])
        let chinese = Self.engine.evaluate(Fixtures.post([("codes", "abc")]), locale: "zh-Hans")
        #expect(chinese.errors.map(\.message) == ["Code 1：Use capitals"])
    }

    /// Untitled items are called after their section, as their page labels them.
    @Test func untitledItemsAreNamedAfterTheirSection() {
        let verdict = Self.engine.evaluate(Fixtures.post([("counts", "1"), ("counts", "x")]))
        #expect(verdict.errors.map(\.message) == ["Counts 2 must be a whole number"])
    }

    /// An error on the list as a whole still names the section; its items' errors name the items.
    @Test func theListsOwnErrorNamesTheSectionAndItsItemsTheirOwn() {
        let verdict = Self.engine.evaluate(
            Fixtures.post([("tags", "a@b.co"), ("tags", "bad-one")] + Array(repeating: ("tags", "a@b.co"), count: 3)))
        #expect(
            verdict.errors.map(\.message) == [
                "Tags accepts at most 4 entries", "Address 2 must be a valid email address",
            ])
    }
}
