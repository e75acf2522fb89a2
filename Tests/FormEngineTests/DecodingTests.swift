import FormEngine
import FormModel
import Testing

/// Every decoding rule, on the example forms: what each row type accepts, and the code of what it refuses.
@Suite struct DecodingTests {
    /// (form, field, sent text, the code refused with — nil when accepted, with the payload's JSON).
    @Test(
        arguments: [
            ("dates", "date", "2026-11-22", nil, #""2026-11-22""#),
            ("dates", "date", "22/11/2026", "notADate", nil),
            ("dates", "date", "2026-02-30", "notADate", nil),
            ("dates", "date", "2025-12-31", "min", nil),
            ("dates", "time", "13:45", nil, #""13:45:00""#),
            ("dates", "time", "13:45:30.250", nil, #""13:45:30""#),
            ("dates", "time", "25:00", "notATime", nil),
            ("dates", "datetime", "2026-11-22 13:45", nil, nil),
            ("dates", "datetime", "2026-11-22T13:45+02:00", nil, nil),
            ("dates", "datetime", "yesterday", "notADateTime", nil),
            ("dates", "timer", "1:30:00", nil, "5400"),
            ("dates", "timer", "PT1H30M", nil, "5400"),
            ("dates", "timer", "90", nil, "90"),
            ("dates", "timer", "1:75", "notADuration", nil),
            ("inputs", "number", "1e3", nil, "1000"),
            ("inputs", "number", "1,5", "notANumber", nil),
            ("inputs", "number", "NaN", "notANumber", nil),
            ("inputs", "decimal", "0.10", nil, "0.1"),
            ("inputs", "decimal", "-1", "min", nil),
            ("inputs", "integer", "+7", nil, "7"),
            ("inputs", "integer", "1e1", nil, "10"),
            ("inputs", "integer", "10.0", nil, "10"),
            ("inputs", "integer", "1.5", "notAnInteger", nil),
            ("inputs", "integer", "99999999999999999999", "integerOutOfRange", nil),
            ("inputs", "text", "tab\there", nil, #""tab\there""#),
            ("inputs", "text", "bell\u{07}", "controlCharacters", nil),
            // C1 controls (U+0080–U+009F) are refused as C0 ones are; other characters after 0xC2 are text.
            ("inputs", "text", "next\u{85}line", "controlCharacters", nil),
            ("inputs", "about", "csi\u{9B}31m", "controlCharacters", nil),
            ("inputs", "text", "£5 at 20°C", nil, #""£5 at 20°C""#),
            ("inputs", "about", "line\r\nbreak", nil, #""line\nbreak""#),
            ("inputs", "email", "a@b", nil, #""a@b""#),
            ("inputs", "email", "a@-b.com", "email", nil),
            ("inputs", "url", "example.com", "url", nil),
            ("inputs", "url", "data:text/html,x", "urlScheme", nil),
            ("selectors", "push", "purple", "unknownOption", nil),
            ("selectors", "push", "", nil, "null"),
            ("booleans", "switch", "off", nil, "false"),
            ("booleans", "switch", "yes", nil, "true"),
            ("booleans", "switch", "2", "notABoolean", nil),
            ("others", "photo", "not-a-file.png", "notAFile", nil),
        ] as [(String, String, String, String?, String?)])
    func decodes(form: String, field: String, sent: String, refusedWith code: String?, payload: String?) {
        var fields = SubmittedFields()
        fields.append(field, .text(sent))
        if form == "booleans" { fields.append("check", .text("on")) }
        let verdict = Fixtures.engine(form).evaluate(fields)
        let codes = verdict.errors.filter { $0.tag == field }.map(\.code)
        #expect(codes == (code.map { [$0] } ?? []), "\(form).\(field) = \(sent)")
        if let payload { #expect(verdict.httpParameters[field]?.text == payload) }
    }

    @Test func multipleSelectionIsASetInTheOptionsOrder() {
        let verdict = Fixtures.engine("selectors").evaluate(
            Fixtures.post([("toppings", "olives"), ("toppings", "cheese"), ("toppings", "olives")]))
        #expect(verdict.httpParameters["toppings"]?.text == #"["cheese","olives"]"#)
        let refused = Fixtures.engine("selectors").evaluate(Fixtures.post([("toppings", "anchovies")]))
        #expect(refused.codes == ["toppings:unknownOption"])
    }

    @Test func uploadedFileIsKeptWithItsName() {
        var fields = SubmittedFields()
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]
        fields.append("photo", .file(UploadedFile(filename: "me.png", contentType: "image/png", bytes: png)))
        let verdict = Fixtures.engine("others").evaluate(fields)
        #expect(verdict.isValid)
        #expect(verdict.formValues["photo"]?.text == #"{"filename":"me.png","contentType":"image/png","size":11}"#)
    }

    @Test func requiredCheckboxMustBeChecked() {
        let verdict = Fixtures.engine("booleans").evaluate(SubmittedFields())
        #expect(verdict.codes == ["check:required"])
        #expect(verdict.errors.first?.message.isEmpty == false)
    }

    @Test func descriptorMessagesOverrideBuiltInOnesPerLocale() throws {
        var row = Row(.text, tag: "name", title: "Name")
        row.required = .always
        var form = Form(id: "m", sections: [Section(rows: [row])])
        form.messages = ["zh-Hans": ["required": "请填写{name}"], "en": ["required": "Please give your {name}"]]
        let engine = FormEngine(form: try FormCompiler().compile(form, file: "test"))
        #expect(engine.evaluate(SubmittedFields(), locale: "zh-Hans").errors.first?.message == "请填写Name")
        #expect(engine.evaluate(SubmittedFields(), locale: "en").errors.first?.message == "Please give your Name")
    }

    @Test func acceptLanguageChoosesAmongBuiltInLocales() {
        #expect(MessageLocale.choose(formLocale: "en", acceptLanguage: "zh-CN,zh;q=0.9") == "zh-Hans")
        #expect(MessageLocale.choose(formLocale: "en", acceptLanguage: "fr-FR, zh;q=0.5, en;q=0.8") == "en")
        #expect(MessageLocale.choose(formLocale: "zh-Hans", acceptLanguage: "fr") == "zh-Hans")
        #expect(MessageLocale.choose(formLocale: "en", acceptLanguage: "zh;q=0") == "en")
        #expect(MessageLocale.choose(formLocale: "en", acceptLanguage: nil) == "en")
    }

    /// The header's syntax (RFC 9110 §12.5.4, §5.6.6): spaces around parts, other parameters beside
    /// `q`, empty members, a `q` that is not a number (ignored, so 1).
    @Test func acceptLanguageIsParsedAsTheRFCWritesIt() {
        let choose = { MessageLocale.choose(formLocale: "en", acceptLanguage: $0) }
        #expect(choose(" zh-CN ; level=1 ; q=0.7 , en ; q=0.6") == "zh-Hans")
        #expect(choose("zh;q=0.5,,en;q=0.6,") == "en")
        #expect(choose("zh;q=abc, en;q=0.9") == "zh-Hans")
        #expect(choose("zh;q=0.000, fr") == "en")
        #expect(choose("") == "en")
        #expect(choose(",;,") == "en")
        #expect(choose("zh-Hans;q=0.3\t,\ten-US;q=0.2") == "zh-Hans")
    }

    /// A form's own locale and the locales its descriptor gives messages for are chosen like built-in ones.
    @Test func acceptLanguageChoosesAmongTheFormsLocales() {
        var form = Form(id: "f", sections: [])
        form.locale = "fr"
        form.messages = ["de": ["required": "{name} fehlt"], "fr-CA": ["required": "{name} manque"]]
        let available = MessageLocale.available(for: form)
        #expect(available == ["en", "zh-Hans", "fr", "de"])
        let choose = { MessageLocale.choose(formLocale: "fr", acceptLanguage: $0, available: available) }
        #expect(choose("fr-CA,fr;q=0.9") == "fr")
        #expect(choose("de-AT") == "de")
        #expect(choose("en-GB, fr;q=0.5") == "en")
        #expect(choose("es") == "fr")
        #expect(choose(nil) == "fr")
        #expect(choose("fr;q=0, zh-TW") == "fr")
        #expect(MessageLocale.choose(formLocale: "es", acceptLanguage: nil, available: available) == "en")
    }

    /// A form in a language with no built-in texts gets its descriptor's messages for it, each error
    /// saying which language its message is in.
    @Test func aFormInAnotherLanguageUsesItsOwnMessages() throws {
        var form = Form(id: "f", sections: [Section(rows: [requiredNameRow()])])
        form.locale = "fr"
        form.messages = ["fr": ["required": "{name} est obligatoire"]]
        let engine = FormEngine(form: try FormCompiler().compile(form, file: "test"))
        #expect(engine.locales == ["en", "zh-Hans", "fr"])
        let french = try #require(engine.evaluate(SubmittedFields(), locale: "fr").errors.first)
        #expect(french.message == "Name est obligatoire")
        #expect(french.language == "fr")
        let english = try #require(engine.evaluate(SubmittedFields(), locale: "en").errors.first)
        #expect(english.message == "Name can't be empty")
        #expect(english.language == "en")
        // A tag that is not one of the engine's locales gets the messages of the same language.
        #expect(engine.evaluate(SubmittedFields(), locale: "fr-CA").errors.first?.message == "Name est obligatoire")
        #expect(engine.evaluate(SubmittedFields(), locale: "zh-CN").errors.first?.language == "zh-Hans")
        // A key the descriptor does not give falls back to English, and says so.
        form.messages = ["fr": ["email": "{name} : adresse invalide"]]
        let partial = FormEngine(form: try FormCompiler().compile(form, file: "test"))
        #expect(partial.evaluate(SubmittedFields(), locale: "fr").errors.first?.language == "en")
    }

    /// A row's own `requireMsg` is in the form's language, whatever the reader's.
    @Test func aRowsOwnMessageIsInTheFormsLanguage() throws {
        var required = requiredNameRow()
        required.requireMessage = "Nom, s'il vous plaît"
        var form = Form(id: "f", sections: [Section(rows: [required])])
        form.locale = "fr"
        let engine = FormEngine(form: try FormCompiler().compile(form, file: "test"))
        let error = try #require(engine.evaluate(SubmittedFields(), locale: "zh-Hans").errors.first)
        #expect(error.message == "Nom, s'il vous plaît")
        #expect(error.language == "fr")
    }
}

/// `SubmittedFields` keeps every value sent under a name, in order, however often the name repeats.
@Suite struct SubmittedFieldsTests {
    @Test func repeatedNamesKeepEveryValueInOrder() {
        var fields = SubmittedFields()
        #expect(fields["tags"] == [])
        #expect(!fields.contains("tags"))
        fields.append("tags", .text("a"))
        #expect(fields["tags"] == [.text("a")])
        #expect(fields.first("tags") == .text("a"))
        fields.append("title", .text("Lunch"))
        fields.append("tags", .text("b"))
        fields.append("tags", .text("c"))
        #expect(fields["tags"] == [.text("a"), .text("b"), .text("c")])
        #expect(fields.first("tags") == .text("a"))
        #expect(fields["title"] == [.text("Lunch")])
        #expect(fields.contains("title"))
        #expect(fields.first("missing") == nil)
    }

    @Test func fieldsSentAlikeAreEqual() {
        var one = SubmittedFields()
        var other = SubmittedFields()
        for (name, value) in [("a", "1"), ("b", "2"), ("a", "3")] { one.append(name, .text(value)) }
        for (name, value) in [("b", "2"), ("a", "1"), ("a", "3")] { other.append(name, .text(value)) }
        #expect(one == other)
        other.append("a", .text("4"))
        #expect(one != other)
    }
}

/// A required text row titled Name.
private func requiredNameRow() -> Row {
    var row = Row(.text, tag: "name", title: "Name")
    row.required = .always
    return row
}
