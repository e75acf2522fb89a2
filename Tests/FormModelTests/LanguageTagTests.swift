import FormModel
import Testing

/// How language tags are compared and which built-in texts they get.
@Suite struct LanguageTagTests {
    @Test(arguments: [
        ("en", "en"), ("en-GB", "en"), ("EN_us", "en"), ("zh", "zh-Hans"), ("zh-CN", "zh-Hans"), ("zh-SG", "zh-Hans"),
        ("zh_Hans_CN", "zh-Hans"), ("zh-Hans-HK", "zh-Hans"),
    ])
    func builtInLanguages(tag: String, language: String) {
        #expect(LanguageTag.builtIn(for: tag) == language)
        #expect(LanguageTag.builtInTexts(for: tag) == language)
    }

    @Test(arguments: ["zh-TW", "zh-Hant", "zh-HK", "zh-Hant-TW", "zh-MO", "fr", "fr-CA", "", "x"])
    func tagsWithNoBuiltInTextsGetEnglish(tag: String) {
        #expect(LanguageTag.builtIn(for: tag) == nil)
        #expect(LanguageTag.builtInTexts(for: tag) == "en")
    }

    @Test func sameLanguageMeansSamePrimaryTagAndChineseScript() {
        #expect(LanguageTag.same("en", "en-GB"))
        #expect(LanguageTag.same("fr-CA", "fr"))
        #expect(LanguageTag.same("zh-CN", "zh-Hans"))
        #expect(LanguageTag.same("zh-TW", "zh-Hant"))
        #expect(!LanguageTag.same("zh-Hans", "zh-Hant"))
        #expect(!LanguageTag.same("en", "fr"))
        #expect(!LanguageTag.same("", ""))
        #expect(LanguageTag.equal("zh_hans", "zh-Hans"))
        #expect(!LanguageTag.equal("fr", "fr-CA"))
    }

    @Test func descriptorTextsForALocaleComeFromItsLanguageAndItsOwnTagWins() {
        let messages = [
            "fr": ["required": "requis", "email": "courriel"], "fr-CA": ["required": "obligatoire"],
            "en": ["required": "needed"],
        ]
        #expect(LanguageTag.texts(for: "fr-CA", in: messages) == ["required": "obligatoire", "email": "courriel"])
        #expect(LanguageTag.texts(for: "fr", in: messages) == ["required": "requis", "email": "courriel"])
        #expect(LanguageTag.texts(for: "en-GB", in: messages) == ["required": "needed"])
        #expect(LanguageTag.texts(for: "zh-Hans", in: messages) == [:])
    }
}
