import FormEngine
import FormModel
import Testing

/// Editing a stored record (docs/submissions.md, rule 5's "stored value"): `Forms/account.yaml`,
/// whose user name is disabled once the account has a `member-since` date.
@Suite struct StoredValuesTests {
    static let engine = Fixtures.engine("account")
    static let ada = Array(
        #"""
        {"member-since": "2024-05-12", "username": "ada", "email": "ada@example.com", "plan": "pro",
         "newsletter": true, "renews": "2027-01-01T08:00:00Z", "devices": ["laptop", "phone"], "retired": 1}
        """#.utf8)

    static func row(_ tag: String) -> Int { engine.form.rows.firstIndex { $0.row.tag == tag }! }

    @Test func aRecordIsDecodedByTheFormsRowTypes() throws {
        let stored = try Self.engine.stored(json: Self.ada)
        #expect(
            stored.rows[Self.row("member-since")]
                == .some(.date(try #require(LocalDate(year: 2024, month: 5, day: 12)))))
        #expect(stored.rows[Self.row("plan")] == .some(.option("pro")))
        #expect(stored.rows[Self.row("newsletter")] == .some(.bool(true)))
        // An instant stored in UTC is read in the form's zone, as a submission's is: 09:00 in Paris.
        guard case .dateTime(let renews)?? = stored.rows[Self.row("renews")] else {
            Issue.record("renews was not decoded as a date-time")
            return
        }
        #expect(renews.local.description == "2027-01-01T09:00")
        #expect(stored.items.values.first == [.text("laptop"), .text("phone")])
        // `retired` names no row (one removed since the record was saved): ignored.
        #expect(stored.rows.count == 6)
    }

    @Test func theInitialVerdictShowsTheRecordAndDecidesOnIt() throws {
        let verdict = Self.engine.initial(stored: try Self.engine.stored(json: Self.ada))
        #expect(verdict.values[Self.row("username")] == .text("ada"))
        // The record has a member-since date, so its user name can no longer be changed.
        #expect(verdict.rowDisabled[Self.row("username")])
        #expect(!verdict.rowHidden[Self.row("renews")])  // plan is pro
        #expect(verdict.items.values.first == [.text("laptop"), .text("phone")])
        // Without a record: a new account, its user name open.
        #expect(!Self.engine.initial().rowDisabled[Self.row("username")])
    }

    @Test func aDisabledRowKeepsTheStoredValueWhateverIsPosted() throws {
        let stored = try Self.engine.stored(json: Self.ada)
        let fields = Fixtures.post([
            ("member-since", "2001-01-01"), ("username", "eve"), ("email", "ada@new.example"), ("plan", "pro"),
            ("renews", "2027-01-01T09:00"), ("devices", "laptop"),
        ])
        let verdict = Self.engine.evaluate(fields, stored: stored)
        #expect(verdict.isValid)
        #expect(verdict.httpParameters["username"] == .string("ada"))
        #expect(verdict.httpParameters["member-since"] == .string("2024-05-12"))
        #expect(verdict.httpParameters["email"] == .string("ada@new.example"))
        // The same post with no record: the user name is open, so the posted one is taken.
        let fresh = Self.engine.evaluate(fields)
        #expect(fresh.httpParameters["username"] == .string("eve"))
        #expect(fresh.httpParameters["member-since"] == .null)
    }

    @Test func aJSONClientKeepsTheStoredValuesOfTheKeysItLeavesOut() throws {
        let stored = try Self.engine.stored(json: Self.ada)
        let fields = try JSONBody.parse(Array(#"{"email": "ada@new.example", "plan": "free"}"#.utf8))
        let verdict = Self.engine.evaluate(fields, stored: stored)
        #expect(verdict.isValid)
        #expect(verdict.httpParameters["newsletter"] == .bool(true))
        #expect(verdict.httpParameters["devices"] == .array([.string("laptop"), .string("phone")]))
        #expect(verdict.httpParameters["renews"] == nil)  // hidden now that the plan is free
        // `null` clears a stored value: email is required.
        let cleared = Self.engine.evaluate(try JSONBody.parse(Array(#"{"email": null}"#.utf8)), stored: stored)
        #expect(cleared.codes == ["email:required"])
    }

    /// 02:30 on 2026-10-25 happens twice in Paris (+02:00, then +01:00 after the clocks go back). A page
    /// shows the wall-clock reading only; posted back untouched, it is the stored instant, not the earlier.
    @Test func anUntouchedDateTimeInTheRepeatedHourKeepsItsInstant() throws {
        let stored = try Self.engine.stored(
            json: Array(#"{"username": "ada", "plan": "pro", "renews": "2026-10-25T02:30:00+01:00"}"#.utf8))
        let post = { (renews: String) in
            Fixtures.post([("username", "ada"), ("email", "a@b.co"), ("plan", "pro"), ("renews", renews)])
        }
        let untouched = Self.engine.evaluate(post("2026-10-25T02:30"), stored: stored)
        #expect(untouched.httpParameters["renews"] == .string("2026-10-25T02:30:00+01:00"))
        // An offset sent says which instant: it is kept.
        let explicit = Self.engine.evaluate(post("2026-10-25T02:30+02:00"), stored: stored)
        #expect(explicit.httpParameters["renews"] == .string("2026-10-25T02:30:00+02:00"))
        // With no record to go by, the earlier instant, as before.
        let fresh = Self.engine.evaluate(post("2026-10-25T02:30"))
        #expect(fresh.httpParameters["renews"] == .string("2026-10-25T02:30:00+02:00"))
    }

    /// Passwords never go back to the browser (docs/submissions.md, rule 10), not even a stored record's items: each
    /// is shown as an empty control; and a list's durations are shown as their controls hold them.
    @Test func aStoredListOfPasswordsIsShownAsEmptyControls() throws {
        var keys = Section(title: "Keys", rows: [])
        keys.multivaluedTag = "keys"
        keys.multivaluedOptions = [.insert, .delete]
        keys.rowTemplate = Row(.password, tag: nil, title: "Key")
        let engine = FormEngine(
            form: try FormCompiler().compile(Form(id: "k", sections: [keys]), file: "test"))
        let stored = try engine.stored(json: Array(#"{"keys": ["s3cret", "hunter2"]}"#.utf8))
        let verdict = engine.initial(stored: stored)
        #expect(verdict.items[0] == [.text("s3cret"), .text("hunter2")])
        #expect(verdict.enteredItems[0] == ["", ""])
    }

    /// Paris kept its mean time (+00:09:21) until 1911. ISO 8601 has no offset with seconds, so such an
    /// instant is written in UTC, exactly; saved and edited again, it does not move.
    @Test func anOffsetWithSecondsIsWrittenInUTCAndDoesNotDrift() throws {
        let first = Self.engine.evaluate(
            try JSONBody.parse(
                Array(#"{"username": "ada", "email": "a@b.co", "plan": "pro", "renews": "1900-01-01T00:00"}"#.utf8)))
        #expect(first.httpParameters["renews"] == .string("1899-12-31T23:50:39Z"))
        var record = first.httpParameters
        for _ in 0..<3 {
            let again = Self.engine.evaluate(
                try JSONBody.parse(Array("{}".utf8)), stored: try Self.engine.stored(record))
            #expect(again.httpParameters["renews"] == .string("1899-12-31T23:50:39Z"))
            record = again.httpParameters
        }
    }

    @Test func aRecordThatNoLongerFitsTheFormIsRefusedNamingTheValue() {
        // The value is what the application looks for in its data: it is named in the error, as JSON.
        let cases: [(json: String, tag: String, value: String)] = [
            (#"{"plan": "gold"}"#, "plan", #""gold""#),
            (#"{"member-since": "yesterday"}"#, "member-since", #""yesterday""#),
            (#"{"newsletter": "perhaps"}"#, "newsletter", #""perhaps""#),
            (#"{"devices": ["a", "b", "c", "d", "e", "f"]}"#, "devices", #"["a","b","c","d","e","f"]"#),
            (#"{"devices": ["a", 3]}"#, "devices[1]", "3"),
            (#"["ada"]"#, "", #""[\"ada\"]""#),
            ("{\n", "", #""{\n""#),
        ]
        for (json, tag, value) in cases {
            do {
                _ = try Self.engine.stored(json: Array(json.utf8))
                Issue.record("\(json) was accepted")
            } catch {
                #expect(error.tag == tag, "\(json)")
                #expect(!error.message.isEmpty)
                #expect(error.value == value, "\(json)")
                #expect(error.description.contains(value), "\(json)")
            }
        }
        // A long value is cut: a log line names it, it does not copy a whole record.
        let long = String(repeating: "x", count: 1000)
        do {
            _ = try Self.engine.stored(json: Array(#"{"plan": "\#(long)"}"#.utf8))
            Issue.record("a plan of 1,000 x was accepted")
        } catch {
            #expect(error.value.count == StoredRecordError.valueLimit + 1)
            #expect(error.value.hasSuffix("…"))
        }
    }
}
