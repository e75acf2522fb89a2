import FormEngine
import FormModel
import Testing

/// A multivalued section keeps its non-empty items in posted order, caps them at `maxRows`, and reads
/// at most ten items per row it allows, empty ones included (docs/submissions.md, rules 6 and 9).
@Suite struct MultivaluedItemsTests {
    /// The example list: text items, `maxRows` 10.
    static let tags = Fixtures.engine("multivalued")

    static func json(_ body: String) throws -> SubmittedFields { try JSONBody.parse(Array(body.utf8)) }

    /// A list of integer items, `maxRows` 3.
    static func numbers() throws -> FormEngine {
        var section = Section(rows: [Row(.integer, tag: nil, title: "N")])
        section.multivaluedTag = "n"
        section.multivaluedOptions = [.insert]
        section.rowTemplate = Row(.integer, tag: nil, title: "N")
        section.maxRows = 3
        return FormEngine(form: try FormCompiler().compile(Form(id: "n", sections: [section]), file: "t"))
    }

    @Test func blankItemsAreDropped() throws {
        let verdict = Self.tags.evaluate(try Self.json(#"{"tags":["a","   ","b","\t",""]}"#))
        #expect(verdict.isValid)
        #expect(verdict.httpParameters.text == #"{"tags":["a","b"]}"#)
        let posted = Self.tags.evaluate(Fixtures.post([("tags", " "), ("tags", "c"), ("tags", "\u{3000}")]))
        #expect(posted.httpParameters.text == #"{"tags":["c"]}"#)
    }

    /// A boolean item is a choice of blank, No or Yes: blank is no item (so a new one can be undone with
    /// no script), not the `false` of an unticked check box.
    @Test func aBlankBooleanItemIsNoItem() throws {
        var section = Section(rows: [])
        section.multivaluedTag = "flags"
        section.multivaluedOptions = [.insert]
        section.rowTemplate = Row(.booleanCheck, tag: nil, title: "Flag")
        let engine = FormEngine(form: try FormCompiler().compile(Form(id: "f", sections: [section]), file: "t"))
        let posted = engine.evaluate(
            Fixtures.post([("flags", "true"), ("flags", ""), ("flags", "false"), ("flags", " ")]))
        #expect(posted.httpParameters.text == #"{"flags":[true,false]}"#)
        #expect(
            engine.evaluate(try Self.json(#"{"flags":[false,"",true]}"#)).httpParameters.text
                == #"{"flags":[false,true]}"#)
    }

    /// Errors come in the order of the page: a row above a list, the list's items, a row below it,
    /// whatever order the checks found them in; the JSON's `errors` follow the same order.
    @Test func errorsAreInPageOrderItemsIncluded() throws {
        var top = Row(.text, tag: "first", title: "First")
        top.required = .always
        var list = Section(rows: [])
        list.multivaluedTag = "n"
        list.multivaluedOptions = [.insert]
        list.rowTemplate = Row(.integer, tag: nil, title: "N")
        var bottom = Row(.text, tag: "last", title: "Last")
        bottom.required = .always
        let form = Form(id: "order", sections: [Section(rows: [top]), list, Section(rows: [bottom])])
        let engine = FormEngine(form: try FormCompiler().compile(form, file: "t"))
        let verdict = engine.evaluate(Fixtures.post([("n", "1"), ("n", "two"), ("n", "3.5")]))
        #expect(verdict.codes == ["first:required", "n[1]:notAnInteger", "n[2]:notAnInteger", "last:required"])
        guard case .array(let listed)? = verdict.errorsJSON["errors"] else {
            Issue.record("no errors array in \(verdict.errorsJSON.text)")
            return
        }
        #expect(listed.map { $0["tag"] } == ["first", "n[1]", "n[2]", "last"].map { JSONValue.string($0) })
    }

    /// Empty items do not count against the cap: one real entry among fifteen empty ones is one entry.
    @Test func emptyItemsDoNotCountAgainstTheCap() throws {
        let empties = Array(repeating: #""""#, count: 15).joined(separator: ",")
        let verdict = Self.tags.evaluate(try Self.json(#"{"tags":["1","# + empties + "]}"))
        #expect(verdict.isValid)
        #expect(verdict.httpParameters.text == #"{"tags":["1"]}"#)
        // Ten real entries, each after a blank one: all kept.
        let pairs = (0..<10).flatMap { [("tags", "  "), ("tags", "t\($0)")] }
        let full = Self.tags.evaluate(Fixtures.post(pairs))
        #expect(full.isValid)
        #expect(full.httpParameters["tags"]?.text == "[" + (0..<10).map { "\"t\($0)\"" }.joined(separator: ",") + "]")
    }

    /// The eleventh real entry is over the cap, however many empty ones come between; the page shows
    /// what was read up to it.
    @Test func theCapCountsRealEntries() throws {
        let pairs = (0..<11).flatMap { [("tags", ""), ("tags", "t\($0)")] }
        let verdict = Self.tags.evaluate(Fixtures.post(pairs))
        #expect(verdict.codes == ["tags:tooManyItems"])
        #expect(verdict.errors.first?.message == "Tags accepts at most 10 entries")
        #expect(verdict.items[0]?.count == 10)
        #expect(verdict.enteredItems[0] == Array(pairs.prefix(21).map(\.1)))  // up to the eleventh "t"
    }

    /// A flood of empty items is not read past ten per row allowed, and is refused as such.
    @Test func aFloodOfEmptyItemsIsRefused() throws {
        let flood = Self.tags.evaluate(Fixtures.post(Array(repeating: ("tags", ""), count: 100_000) + [("tags", "a")]))
        #expect(flood.codes == ["tags:tooManyItemsSent"])
        #expect(flood.errors.first?.message == "At most 100 entries may be sent for Tags, empty ones included")
        #expect(flood.items[0] == [])
        #expect(flood.enteredItems[0]?.count == 100)
        let chinese = Self.tags.evaluate(Fixtures.post(Array(repeating: ("tags", " "), count: 101)), locale: "zh-Hans")
        #expect(chinese.errors.map(\.message) == ["Tags最多可提交 100 项（含空项）"])
        // Exactly the limit is read in full.
        let limit = Self.tags.evaluate(Fixtures.post(Array(repeating: ("tags", ""), count: 99) + [("tags", "a")]))
        #expect(limit.isValid)
        #expect(limit.httpParameters.text == #"{"tags":["a"]}"#)
    }

    /// An item that cannot be decoded is not empty: it counts against the cap and its error names its
    /// position in what was sent.
    @Test func undecodableItemsCountAndNameTheirPosition() throws {
        let engine = try Self.numbers()
        let verdict = engine.evaluate(try Self.json(#"{"n":["", "x", " ", "2", null, "3", "4"]}"#))
        #expect(verdict.codes == ["n:tooManyItems", "n[1]:notAnInteger"])
        #expect(verdict.httpParameters.text == #"{"n":[2,3]}"#)
        let valid = engine.evaluate(try Self.json(#"{"n":["", "1", " ", "2", null, "3", ""]}"#))
        #expect(valid.isValid)
        #expect(valid.httpParameters.text == #"{"n":[1,2,3]}"#)
    }
}
