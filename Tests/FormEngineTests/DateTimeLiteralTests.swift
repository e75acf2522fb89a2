import FormEngine
import FormModel
import FormPredicate
import Testing

/// A literal compared with a date-time row is read as the form's clock shows it (or at its own
/// offset), once, when the form is compiled: conditions read date-times as UTC instants, and an author
/// writes `'2026-11-23T09:00'` meaning nine o'clock where the form is.
@Suite struct DateTimeLiteralTests {
    /// A form in Europe/Paris: `starts`, `late` hidden unless `condition` holds, and a text row `note`.
    private static func form(_ condition: String) throws(LoadProblems) -> CompiledForm {
        var form = Form(
            id: "t", title: "T",
            sections: [
                Section(rows: [
                    Row(.datetime, tag: "starts", title: "Starts"), Row(.text, tag: "late", title: "Late"),
                    Row(.text, tag: "note", title: "Note"),
                ])
            ])
        form.timeZone = "Europe/Paris"
        form.sections[0].rows[1].hidden = Condition.predicate("NOT (\(condition))")
        return try FormCompiler().compile(form, file: "test")
    }

    private static func shown(_ condition: String, starts: String) throws -> Bool {
        let engine = FormEngine(form: try form(condition))
        var fields = SubmittedFields()
        fields.append("starts", .text(starts))
        return !(engine.evaluate(fields).rowHidden[1])
    }

    @Test(
        arguments: [
            // Winter (+01:00): 09:00 in Paris is 08:00Z.
            ("$starts >= '2026-11-23T09:00'", "2026-11-23T09:00", true),
            ("$starts >= '2026-11-23T09:00'", "2026-11-23T08:59", false),
            ("$starts >= '2026-11-23T09:00'", "2026-11-23T08:00Z", true),
            ("$starts == '2026-11-23T09:00:00'", "2026-11-23T09:00", true),
            // A literal with its own offset is that instant.
            ("$starts < '2026-11-23T08:00:00Z'", "2026-11-23T08:59", true),
            // On either side of a comparison, and in IN / BETWEEN lists.
            ("'2026-07-01T12:00' <= $starts", "2026-07-01T12:00", true),
            ("$starts BETWEEN {'2026-07-01T12:00', '2026-07-01T13:00'}", "2026-07-01T10:30Z", true),
            ("$starts IN {'2026-07-01T12:00', '2026-07-01T13:00'}", "2026-07-01T11:00Z", true),
            // The first 02:30 of the night the clocks go back is 00:30Z, the second 01:30Z.
            ("$starts == '2026-10-25T02:30'", "2026-10-25T00:30Z", true),
            ("$starts == '2026-10-25T02:30'", "2026-10-25T01:30Z", false),
        ] as [(String, String, Bool)])
    func aLiteralMeansTheFormsClock(condition: String, starts: String, shown expected: Bool) throws {
        #expect(try Self.shown(condition, starts: starts) == expected, "\(condition) with \(starts)")
    }

    @Test func otherLiteralsAndEmptyTextStayAsWritten() throws {
        let compiled = try Self.form("$starts != '' AND $note == '2026-11-23T09:00'")
        guard case .predicate(let predicate, _) = compiled.rows[1].hidden else {
            Issue.record("the condition did not compile to a predicate")
            return
        }
        // `$note` is a text row: its literal is text, not a time.
        #expect(predicate.description.contains("'2026-11-23T09:00'"))
        #expect(predicate.description.contains("''"))
    }

    @Test func aLiteralThatIsNoDateTimeOfTheZoneStopsTheFormAtLoad() {
        for literal in ["tomorrow", "2026-03-29T02:30"] {
            #expect {
                try Self.form("$starts > '\(literal)'")
            } throws: { error in
                "\(error)".contains(
                    "'\(literal)' is compared with a date-time but is not one the time zone Europe/Paris has")
            }
        }
    }
}
