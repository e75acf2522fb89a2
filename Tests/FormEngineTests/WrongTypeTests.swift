import FormEngine
import FormModel
import Testing

/// `wrongType` names the kind of value sent in the reader's language, through the same message texts,
/// and the same descriptor overrides, as every other message.
@Suite struct WrongTypeTests {
    static func json(_ body: String) throws -> SubmittedFields { try JSONBody.parse(Array(body.utf8)) }

    @Test func aListForATextRowIsNamedInTheReadersLanguage() throws {
        let engine = Fixtures.engine("inputs")
        let fields = try Self.json(#"{"text":[1]}"#)
        #expect(engine.evaluate(fields, locale: "zh-Hans").errors.map(\.message) == ["Text不能是列表"])
        #expect(engine.evaluate(fields, locale: "zh-CN").errors.first?.language == "zh-Hans")
        #expect(engine.evaluate(fields, locale: "en").errors.map(\.message) == ["Text cannot be a list"])
    }

    /// (kind, English, Simplified Chinese): every kind has a built-in name in both.
    @Test(
        arguments: [
            (RawValue.Kind.text, "text", "文本"), (.number, "a number", "数字"), (.boolean, "true or false", "布尔值"),
            (.null, "null", "空值"), (.list, "a list", "列表"), (.object, "an object", "对象"), (.file, "a file", "文件"),
        ])
    func everyKindIsNamedInBothLanguages(kind: RawValue.Kind, english: String, chinese: String) {
        #expect(Messages(locale: "en").text(for: .wrongType(sent: kind), name: "X") == "X cannot be \(english)")
        #expect(Messages(locale: "zh-Hans").text(for: .wrongType(sent: kind), name: "X") == "X不能是\(chinese)")
    }

    @Test func everyKindIsCovered() {
        #expect(RawValue.Kind.allCases.count == 7)
        #expect(Set(RawValue.Kind.allCases.map(\.messageKey)).count == 7)
    }

    @Test func eachDecodingPathNamesTheKindSent() throws {
        let engine = Fixtures.engine("inputs")
        let sent = try Self.json(#"{"text":{"a":1},"integer":true,"email":12,"url":false}"#)
        #expect(
            engine.evaluate(sent, locale: "zh-Hans").errors.map(\.message) == [
                "Text不能是对象", "Email不能是数字", "Website不能是布尔值", "Integer不能是布尔值",
            ])
        var file = SubmittedFields()
        file.append("text", .file(UploadedFile(filename: "a.txt", contentType: "text/plain", bytes: [1])))
        #expect(engine.evaluate(file, locale: "zh-Hans").errors.map(\.message) == ["Text不能是文件"])
    }

    /// A descriptor names the kinds in its own words, per locale, as it does any other text.
    @Test func descriptorOverridesTheKindsNames() throws {
        var form = Form(id: "k", sections: [Section(rows: [Row(.text, tag: "name", title: "Nom")])])
        form.locale = "fr"
        form.messages = [
            "fr": ["wrongType": "{name} ne peut pas être {sent}", "sentList": "une liste"],
            "zh-Hans": ["sentList": "数组"],
        ]
        let engine = FormEngine(form: try FormCompiler().compile(form, file: "t"))
        let fields = try Self.json(#"{"name":["a"]}"#)
        #expect(engine.evaluate(fields, locale: "fr").errors.map(\.message) == ["Nom ne peut pas être une liste"])
        #expect(engine.evaluate(fields, locale: "zh-Hans").errors.map(\.message) == ["Nom不能是数组"])
        #expect(engine.evaluate(fields, locale: "en").errors.map(\.message) == ["Nom cannot be a list"])
    }
}
