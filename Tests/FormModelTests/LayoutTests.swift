import FormModel
import Testing

/// A form's `layout`: lines of rows that share one on a wide screen, and help behind a "?". A line that
/// names an unknown row, or rows that cannot share a line, is a load problem naming the place.
@Suite struct LayoutTests {
    static let rows = [
        "{tag: starts, type: datetime}", "{tag: ends, type: datetime}", "{tag: note, type: text}",
    ]

    @Test func aLayoutIsReadFromTheDescriptor() throws {
        let form = try FormLoader().load(
            "layout: {lines: [[starts, ends]], help: toggle}\nsections: [{rows: [\(Self.rows.joined(separator: ", "))]}]",
            file: "f.yaml", defaultID: "f"
        ).get()
        #expect(form.layout == Layout(lines: [["starts", "ends"]], help: .toggle))
        _ = try FormCompiler().compile(form, file: "f.yaml")
    }

    @Test(arguments: [
        ("{lines: [[starts, endz]]}", "layout.lines[0][1]: 'endz' names no row of the form (did you mean 'ends'?)"),
        ("{lines: [[starts]]}", "layout.lines[0]: a line holds two rows or more"),
        ("{lines: [[starts, note]]}", "layout.lines[0]: the rows of a line must follow one another in one section"),
        ("{lines: [[ends, starts]]}", "layout.lines[0]: the rows of a line must follow one another"),
        ("{lines: [[starts, ends], [ends, note]]}", "layout.lines[1][0]: 'ends' is already on another line"),
        ("{lines: [[starts, tags]]}", "layout.lines[0][1]: 'tags' is in a multivalued section"),
        ("{lines: [starts]}", "layout.lines[0]: a line is a list of row tags, such as [starts, ends]"),
        ("{help: hidden}", "layout.help: expected 'shown' or 'toggle'"),
        ("{columns: 2}", "layout.columns: unknown key 'columns'"),
    ])
    func aLayoutThatCannotBeDrawnIsALoadProblem(layout: String, expected: String) {
        let problems = FitChecksTests.problems(
            Self.rows, extra: "layout: \(layout)\n",
            sections: ", {multivaluedTag: tags, multivaluedOptions: [insert], rowTemplate: {type: text}, rows: []}")
        #expect(problems.contains { $0.contains(expected) }, "\(problems)")
    }
}
