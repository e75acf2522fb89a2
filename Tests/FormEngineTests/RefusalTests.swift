import FormEngine
import FormModel
import Testing

/// A Swift handler's own refusal of a valid submission (`FormEngine.refusing`): errors with code
/// `refused`, placed where the server's own would be, on `Forms/account.yaml`.
@Suite struct RefusalTests {
    static let engine = Fixtures.engine("account")

    static func row(_ tag: String) -> Int { engine.form.rows.firstIndex { $0.row.tag == tag }! }

    /// A valid new account, as a browser posts it; `devices` as sent, blank ones included.
    static func valid(plan: String = "free", devices: [String] = [], locale: String = "en") -> Verdict {
        let fields = Fixtures.post(
            [("username", "grace"), ("email", "grace@example.com"), ("plan", plan)] + devices.map { ("devices", $0) })
        return engine.evaluate(fields, locale: locale)
    }

    @Test func aRefusalOfARowStandsBesideThatRow() throws {
        let verdict = Self.valid()
        try #require(verdict.isValid)
        let refused = Self.engine.refusing(verdict, [(tag: "username", message: "The user name 'grace' is taken")])
        #expect(!refused.isValid)
        let error = try #require(refused.errors.first)
        #expect(error.tag == "username")
        #expect(error.code == "refused")
        #expect(error.message == "The user name 'grace' is taken")
        #expect(error.row == Self.row("username"))
        #expect(error.language == "en")
        #expect(
            refused.errorsJSON.text
                == #"{"errors":[{"tag":"username","message":"The user name 'grace' is taken","code":"refused"}]}"#)
        // Everything else is the verdict's: the values the page shows again.
        #expect(refused.values == verdict.values)
    }

    @Test func anItemIsNamedByItsPositionAsSent() throws {
        // The blank second item is dropped from httpParameters: its value 1 ("phone") was sent third.
        let verdict = Self.valid(devices: ["laptop", "", "phone"])
        try #require(verdict.isValid)
        #expect(verdict.httpParameters["devices"] == .array([.string("laptop"), .string("phone")]))
        let refused = Self.engine.refusing(
            verdict, [(tag: "devices[1]", message: "Already registered"), (tag: "devices", message: "Too many")])
        #expect(refused.errors.map(\.tag) == ["devices[2]", "devices"])
        #expect(refused.errors[0].message == "Device 3: Already registered")
        #expect(refused.errors[0].position == 2)
        #expect(refused.errors[0].section != nil)
        #expect(refused.errors[1].section != nil)
        #expect(refused.errors[1].position == nil)
    }

    @Test func aTagThatNamesNoFieldOnThePageIsAnErrorAboutTheWholeForm() throws {
        // renews is hidden on the free plan; devices[5] is past the list; nothing is tagged "nickname".
        let verdict = Self.valid(devices: ["laptop"])
        try #require(verdict.isValid)
        let refused = Self.engine.refusing(
            verdict,
            [
                (tag: "nickname", message: "Unknown"), (tag: "renews", message: "Hidden"),
                (tag: "devices[5]", message: "Past the end"), (tag: "devices[x]", message: "Not a position"),
                (tag: "", message: "The whole form"),
            ])
        #expect(refused.errors.map(\.tag) == ["", "renews", "", "", ""])
        for error in refused.errors {
            #expect(error.row == nil && error.section == nil && error.position == nil, "\(error.message)")
            #expect(error.code == "refused")
        }
    }

    /// A saved account's user name is disabled: the page script puts a disabled row's inline error away,
    /// so a refusal of it stands in the summary only, where the reader still sees it.
    @Test func aRefusalOfADisabledRowIsSaidInTheSummary() throws {
        let stored = try Self.engine.stored(
            json: Array(#"{"member-since": "2024-05-12", "username": "ada", "email": "a@b.co"}"#.utf8))
        let verdict = Self.engine.evaluate(Fixtures.post([("email", "a@b.co"), ("plan", "free")]), stored: stored)
        try #require(verdict.isValid && verdict.rowDisabled[Self.row("username")])
        let refused = Self.engine.refusing(verdict, [(tag: "username", message: "Locked by an administrator")])
        let error = try #require(refused.errors.first)
        #expect(error.tag == "username")
        #expect(error.row == nil && error.section == nil)
        #expect(error.message == "Locked by an administrator")
    }

    @Test func aRefusalWithoutWordsSaysInTheReadersLanguageThatItIsNotValid() throws {
        let verdict = Self.valid(locale: "zh-Hans")
        try #require(verdict.isValid)
        let refused = Self.engine.refusing(verdict, [(tag: "email", message: " ")])
        #expect(refused.errors.map(\.message) == ["Email无效"])
        #expect(refused.errors.first?.language == "zh-Hans")
        // Refusing nothing in particular refuses the form as a whole: never a "refusal" that is valid.
        let whole = Self.engine.refusing(Self.valid(), [])
        #expect(!whole.isValid)
        #expect(whole.errors.map(\.message) == ["Account is not valid"])
        #expect(whole.errors.first?.tag == "")
    }

    @Test func theMessagesLanguageIsTheFormsUnlessTheHandlerSaysOtherwise() throws {
        let verdict = Self.valid(locale: "zh-Hans")
        let refused = Self.engine.refusing(verdict, [(tag: "username", message: "Taken")])
        #expect(refused.errors.first?.language == "en")
        let chinese = Self.engine.refusing(verdict, [(tag: "username", message: "用户名已被占用")], language: "zh-Hans")
        #expect(chinese.errors.first?.language == "zh-Hans")
    }
}
