import FormEngine
import FormModel
import Testing

/// The server rules of docs/submissions.md, each shown with a form made for it.
@Suite struct ServerRulesTests {
    static func compile(_ form: Form) throws -> CompiledForm { try FormCompiler().compile(form, file: "test") }

    /// `gate` decides whether `secret` is shown; `secret` decides whether `deeper` is.
    static func branching(_ hiddenValues: Form.HiddenValues) throws -> FormEngine {
        var gate = Row(.booleanSwitch, tag: "gate")
        gate.value = .bool(false)
        var secret = Row(.text, tag: "secret", title: "Secret")
        secret.hidden = .predicate("$gate == NO")
        var deeper = Row(.text, tag: "deeper", title: "Deeper")
        deeper.hidden = .predicate("$secret != 'open'")
        deeper.required = .always
        var locked = Row(.text, tag: "locked")
        locked.disabled = .always
        locked.value = .text("server")
        var form = Form(id: "rules", sections: [Section(rows: [gate, secret, deeper, locked])])
        form.hiddenValues = hiddenValues
        return FormEngine(form: try compile(form))
    }

    @Test func hiddenValueCannotRevealAFurtherBranch() throws {
        let verdict = try Self.branching(.clear).evaluate(Fixtures.post([("secret", "open"), ("deeper", "x")]))
        #expect(verdict.rowHidden == [false, true, true, false])
        #expect(verdict.isValid)  // deeper is required, but hidden: not validated
        #expect(verdict.httpParameters.text == #"{"gate":false,"locked":"server"}"#)
    }

    @Test func keepModeLetsHiddenValuesFeedConditionsButNotThePayload() throws {
        let verdict = try Self.branching(.keep).evaluate(Fixtures.post([("secret", "open")]))
        #expect(verdict.rowHidden == [false, true, false, false])
        #expect(verdict.codes == ["deeper:required"])
        #expect(verdict.httpParameters["secret"] == nil)
    }

    @Test func disabledRowKeepsTheServersValue() throws {
        let verdict = try Self.branching(.clear).evaluate(
            Fixtures.post([("gate", "on"), ("secret", "open"), ("deeper", "d"), ("locked", "hacked")]))
        #expect(verdict.isValid)
        #expect(verdict.httpParameters["locked"] == .string("server"))
        #expect(verdict.httpParameters["deeper"] == .string("d"))
    }

    @Test func requiredMayBeAPredicate() throws {
        let pets = Fixtures.engine("pets")
        #expect(pets.evaluate(Fixtures.post([("has_pets", "on")])).codes == ["pet_names:required"])
        #expect(pets.evaluate(Fixtures.post([("has_pets", "on")])).errors.first?.message == "Tell us your pets' names")
        #expect(pets.evaluate(Fixtures.post([])).isValid)
    }

    @Test func sectionHiddenByASwitchDropsAllItsRows() {
        let pets = Fixtures.engine("pets")
        let hidden = pets.evaluate(Fixtures.post([("contact_phone", "123")]))
        #expect(hidden.isValid)
        #expect(hidden.httpParameters["contact_email"] == nil)
        #expect(hidden.httpParameters["contact_phone"] == nil)
        let shown = pets.evaluate(Fixtures.post([("show_contact", "on")]))
        #expect(shown.codes == ["contact_email:required"])
        #expect(shown.sectionHidden == [false, false, false])
    }

    @Test func everyFailingRuleIsReportedAndRequiredStopsTheRow() {
        let engine = Fixtures.engine("validations")
        let verdict = engine.evaluate(
            Fixtures.post([("username", "A!"), ("password", ""), ("age", "12")]))
        #expect(verdict.codes == ["username:minLength", "username:regex", "age:min", "password:required"])
        #expect(verdict.errors[2].message == "You must be 13 or older")
    }

    @Test func aCustomValidatorRunsBesideTheBuiltInOnes() {
        let engine = FormEngine(
            form: Fixtures.invitation, customValidators: ["invitationCode": Fixtures.invitationCode])
        let verdict = engine.evaluate(Fixtures.post([("code", "no")]))
        #expect(verdict.codes == ["code:minLength", "code:custom.invitationCode"])
        #expect(verdict.errors[1].message == "Invitation codes start with FW-")
        #expect(engine.evaluate(Fixtures.post([("code", "FW-1")])).isValid)
    }

    @Test func equalsRowComparesWithTheOtherRow() {
        let engine = Fixtures.engine("validations")
        let fields = [("username", "abc"), ("password", "long enough"), ("confirm", "different")]
        #expect(engine.evaluate(Fixtures.post(fields)).codes == ["confirm:equalsRow"])
        let same = [("username", "abc"), ("password", "long enough"), ("confirm", "long enough")]
        #expect(engine.evaluate(Fixtures.post(same)).isValid)
    }

    @Test func passwordsAreNeverKeptForTheRerenderedPage() {
        let engine = Fixtures.engine("validations")
        let verdict = engine.evaluate(Fixtures.post([("username", "A"), ("password", "hunter22")]))
        let passwordRow = engine.form.rowIndex["password"]!
        #expect(verdict.entered[passwordRow] == nil)
        #expect(verdict.entered[engine.form.rowIndex["username"]!] == ["A"])
    }

    @Test func urlSchemeIsRestrictedPerRow() {
        let engine = Fixtures.engine("validations")
        let base = [("username", "abc"), ("password", "long enough")]
        #expect(
            engine.evaluate(Fixtures.post(base + [("homepage", "http://example.com")])).codes == ["homepage:urlScheme"])
        #expect(engine.evaluate(Fixtures.post(base + [("homepage", "https://example.com")])).isValid)
    }

    @Test func multivaluedSectionKeepsPostedOrderAndCapsItsItems() {
        let engine = Fixtures.engine("multivalued")
        let verdict = engine.evaluate(Fixtures.post([("tags", "b"), ("tags", ""), ("tags", "a")]))
        #expect(verdict.httpParameters.text == #"{"tags":["b","a"]}"#)
        let many = Fixtures.post((0..<11).map { ("tags", "t\($0)") })
        let capped = engine.evaluate(many)
        #expect(capped.codes == ["tags:tooManyItems"])
        guard case .array(let kept) = capped.httpParameters["tags"] else {
            Issue.record("tags is not an array")
            return
        }
        #expect(kept.count == 10)
    }

    @Test func jsonBodyDecodesTypedValuesAndLists() throws {
        let body = #"{"title":"Lunch","starts":"2026-11-23T12:00","ends":"2026-11-23T13:00","all-day":true,"guests":3}"#
        let verdict = Fixtures.engine("event").evaluate(try JSONBody.parse(Array(body.utf8)))
        #expect(verdict.isValid)
        #expect(verdict.httpParameters["all-day"] == .bool(true))
        #expect(verdict.httpParameters["guests"] == .integer(3))
        #expect(verdict.httpParameters["repeat"] == .string("never"))  // left out: the descriptor's default
        let cleared = Fixtures.engine("event").evaluate(try JSONBody.parse(Array(#"{"repeat":null}"#.utf8)))
        #expect(cleared.httpParameters["repeat"] == .null)
        let tags = try JSONBody.parse(Array(#"{"tags":["x","y"]}"#.utf8))
        #expect(Fixtures.engine("multivalued").evaluate(tags).httpParameters.text == #"{"tags":["x","y"]}"#)
    }

    @Test func jsonTypesThatDoNotFitAreRefused() throws {
        let body = #"{"title":["a","b"],"starts":"2026-11-23T12:00","ends":"2026-11-23T13:00","guests":"many"}"#
        let verdict = Fixtures.engine("event").evaluate(try JSONBody.parse(Array(body.utf8)))
        #expect(verdict.codes == ["title:wrongType", "guests:notAnInteger"])
    }

    @Test func initialVerdictShowsTheDefaultsState() {
        let verdict = Fixtures.engine("event").initial()
        let second = Fixtures.catalog.forms["event"]!.rowIndex["second-alert"]!
        #expect(verdict.rowHidden[second])
        #expect(verdict.isValid)
    }

    @Test func unregisteredCustomValidatorsAreListed() {
        let form = Fixtures.invitation
        #expect(FormEngine.unregisteredValidators(in: form, registered: [:]) == ["invitationCode"])
        #expect(
            FormEngine.unregisteredValidators(in: form, registered: ["invitationCode": Fixtures.invitationCode]).isEmpty
        )
    }
}

@Suite struct HiddenJunkTests {
    /// A hidden row's junk must not switch off another row's predicate validator.
    @Test func undecodableHiddenRowDoesNotDisableARule() throws {
        var plan = Row(.selectorPush, tag: "plan")
        plan.options = [Option("free"), Option("paid")]
        var budget = Row(.integer, tag: "budget")
        budget.hidden = .predicate("$plan == 'free'")
        var seats = Row(.integer, tag: "seats", title: "Seats")
        seats.validators = [ValidatorSpec(.predicate("$seats <= 5 OR $budget > 0"), message: "Too many seats")]
        let form = try FormCompiler().compile(
            Form(id: "s", sections: [Section(rows: [plan, budget, seats])]), file: "t")
        let verdict = FormEngine(form: form).evaluate(
            Fixtures.post([("plan", "free"), ("seats", "500"), ("budget", "x")]))
        #expect(verdict.codes == ["seats:predicate"])
    }

    @Test func optionIsStoredAsTheDescriptorSpellsIt() throws {
        var drink = Row(.selectorPush, tag: "drink")
        drink.options = [Option("caf\u{E9}")]
        var follow = Row(.text, tag: "note")
        follow.hidden = .predicate("$drink == 'caf\u{E9}'")
        let form = try FormCompiler().compile(Form(id: "d", sections: [Section(rows: [drink, follow])]), file: "t")
        let verdict = FormEngine(form: form).evaluate(Fixtures.post([("drink", "cafe\u{301}"), ("note", "x")]))
        #expect(verdict.rowHidden[1])
        #expect(Array((verdict.httpParameters["drink"]?.text ?? "").utf8) == Array("\"caf\u{E9}\"".utf8))
    }

    @Test func disabledListKeepsItsItems() throws {
        var section = Section(rows: [Row(.text, tag: nil, title: "Tag")])
        section.rows[0].value = .text("fixed")
        section.rows[0].disabled = .always
        section.multivaluedTag = "tags"
        let form = try FormCompiler().compile(Form(id: "l", sections: [section]), file: "t")
        let verdict = FormEngine(form: form).evaluate(Fixtures.post([("tags", "injected")]))
        #expect(verdict.httpParameters.text == #"{"tags":["fixed"]}"#)
    }

    @Test func listWithoutInsertCannotGrow() throws {
        var section = Section(rows: [Row(.text, tag: nil, title: "Tag"), Row(.text, tag: nil, title: "Tag")])
        section.multivaluedTag = "tags"
        section.multivaluedOptions = [.delete]
        let form = try FormCompiler().compile(Form(id: "l", sections: [section]), file: "t")
        let verdict = FormEngine(form: form).evaluate(Fixtures.post([("tags", "a"), ("tags", "b"), ("tags", "c")]))
        #expect(verdict.codes == ["tags:tooManyItems"])
    }

    /// The fields a form post carries for the server itself: the CSRF token, "add another", the version
    /// of the stored record edited.
    @Test(arguments: ["_csrf", "_add", "_version"])
    func reservedTagsAreLoadErrors(tag: String) {
        #expect(throws: LoadProblems.self) {
            try FormCompiler().compile(Form(id: "r", sections: [Section(rows: [Row(.text, tag: tag)])]), file: "t")
        }
    }
}
