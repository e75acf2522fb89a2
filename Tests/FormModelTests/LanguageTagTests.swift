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

    /// RFC 5646 §2.1's syntax, exactly: shape, not registration (`xx-Klingon` has a well-formed shape).
    @Test(arguments: [
        "en", "fr-FR", "zh-Hans-CN", "sr-Latn-RS", "de-CH-1996", "es-419", "zh-yue-HK", "en-US-u-ca-gregory",
        "en-a-bbb-x-a-ccc", "x-whatever", "i-klingon", "en-GB-oed", "EN-us", "tlh", "xx-Klingon",
    ])
    func wellFormedTags(tag: String) {
        #expect(LanguageTag.isWellFormed(tag))
    }

    @Test(arguments: [
        "", "e", "en_US", "fr--FR", "en-", "-en", "english-language-tag", "123", "en-US-x", "en-u",
        "zh-Hans-CN-abcdefghi",
        "en US", "fr-FR!", "toolonglang", "en-x-abcdefghi", "de-1996-a",
    ])
    func malformedTags(tag: String) {
        #expect(!LanguageTag.isWellFormed(tag))
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
