import FormEngine
import FormModel
import FormPredicate
import Testing

/// A condition that cannot be evaluated counts as false, and the verdict says which one, where and why,
/// so the server can tell the form's author (nothing in the answer does).
@Suite struct ConditionFailureTests {
    /// `note` is hidden by a key path that fails while `country` is empty; `country`'s own predicate
    /// validator asks a string for a key it does not have.
    static func engine() throws -> FormEngine {
        var country = Row(.text, tag: "country", title: "Country")
        country.validators = [ValidatorSpec(.predicate("$country.population > 1"), message: "Too small")]
        var note = Row(.text, tag: "note", title: "Note")
        note.hidden = .predicate("$country.length > 20")
        var ok = Row(.text, tag: "ok", title: "Fine")
        ok.hidden = .predicate("$country == 'Atlantis'")
        let form = Form(id: "failing", sections: [Section(title: "Where", rows: [country, note, ok])])
        return FormEngine(form: try FormCompiler().compile(form, file: "test"))
    }

    @Test func aKeyPathOnAnEmptyRowFailsCountsAsFalseAndIsNamed() throws {
        let engine = try Self.engine()
        let verdict = engine.evaluate(Fixtures.post([("note", "hi")]))
        #expect(verdict.rowHidden == [false, false, false])  // false: `note` stays visible
        #expect(verdict.conditionFailures.count == 1)
        let failure = try #require(verdict.conditionFailures.first)
        #expect(failure.place == .rowHidden(1))
        #expect(failure.source == "$country.length > 20")
        #expect(failure.error.code == .keyPathOnNull)
        #expect(failure.place.description(in: engine.form) == "row 'note' (hidden)")
    }

    @Test func aFailingPredicateValidatorRefusesTheValueAndIsNamed() throws {
        let engine = try Self.engine()
        let verdict = engine.evaluate(Fixtures.post([("country", "France")]))
        #expect(verdict.codes == ["country:predicate"])
        #expect(verdict.conditionFailures.map(\.place) == [.validator(row: 0)])
        #expect(verdict.conditionFailures.first?.error.code == .unknownKey)
        #expect(ConditionPlace.validator(row: 0).description(in: engine.form) == "row 'country' (predicate validator)")
    }

    @Test func conditionsThatEvaluateLeaveNoFailure() throws {
        let verdict = try Self.engine().evaluate(Fixtures.post([("country", "Atlantis")]))
        #expect(verdict.rowHidden == [false, false, true])
        // Only the validator's key path fails; the three hiding conditions were evaluated.
        #expect(verdict.conditionFailures.map(\.place) == [.validator(row: 0)])
    }

    @Test func theDefaultsVerdictNamesFailuresToo() throws {
        let engine = try Self.engine()
        #expect(engine.initial().conditionFailures.map(\.place) == [.rowHidden(1)])
        #expect(ConditionPlace.sectionHidden(0).description(in: engine.form) == "section 'Where' (hidden)")
        #expect(ConditionPlace.sectionHidden(7).description(in: engine.form) == "section 8 (hidden)")
    }
}
