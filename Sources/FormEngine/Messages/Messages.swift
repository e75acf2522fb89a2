import FormModel

/// The built-in texts of validation messages, in English and Simplified Chinese, with the overrides a
/// descriptor gives per locale (`messages: {zh-Hans: {required: "请填写{name}"}}`).
///
/// `{name}` is the row's title (or tag when untitled); other placeholders are listed in `Problem.arguments`,
/// but for `wrongType`'s `{sent}`, the kind of value sent, named by a text of its own (`sentList`…).
public struct Messages: Sendable {
    /// The locale the messages are for: a key of `MessageLocale.available(for:)`.
    public let locale: String
    /// The language of the built-in texts used: `en` or `zh-Hans`.
    public let builtInLanguage: String
    private let texts: [String: String]
    /// The keys the descriptor gave texts for, which are in `locale`'s language.
    private let overridden: Set<String>

    /// The messages of `locale` (chosen by `MessageLocale.choose`), with `overrides` from the descriptor
    /// (its `messages`, by locale).
    public init(locale: String, overrides: [String: [String: String]] = [:]) {
        builtInLanguage = LanguageTag.builtInTexts(for: locale)
        let builtIn = builtInLanguage == "zh-Hans" ? Self.chinese : Self.english
        let own = LanguageTag.texts(for: locale, in: overrides)
        self.locale = locale
        texts = builtIn.merging(own) { _, descriptor in descriptor }
        overridden = Set(own.keys)
    }

    /// The text for `problem` on the row called `name`.
    public func text(for problem: Problem, name: String) -> String {
        // A Swift validator speaks for itself; its closure chose the words.
        if case .custom(_, let message) = problem, !message.isEmpty { return message }
        var text = texts[problem.messageKey] ?? Self.english[problem.messageKey] ?? problem.code
        text = text.replacingAll("{name}", with: name)
        for (key, value) in problem.arguments { text = text.replacingAll("{\(key)}", with: value) }
        // The kind sent is named in the reader's language too, through the same texts and overrides.
        if case .wrongType(let sent) = problem {
            text = text.replacingAll("{sent}", with: texts[sent.messageKey] ?? Self.english[sent.messageKey] ?? "")
        }
        return text
    }

    /// The text for `problem` on the item of a multivalued section called `name` ("Tag 2"). A text that
    /// would not name its item — a validator's own `message`, a Swift validator's words, a descriptor's
    /// text without `{name}` — is prefixed with the name (`itemPrefix`), so no two items' errors read alike.
    public func itemText(for problem: Problem, name: String, message: String?) -> String {
        let text = message ?? self.text(for: problem, name: name)
        if message == nil, namesItsRow(problem) { return text }
        return (texts["itemPrefix"] ?? Self.english["itemPrefix"] ?? "").replacingAll("{name}", with: name) + text
    }

    /// Whether `text(for:name:)` names the row: its text has `{name}`.
    private func namesItsRow(_ problem: Problem) -> Bool {
        if case .custom(_, let message) = problem, !message.isEmpty { return false }
        return (texts[problem.messageKey] ?? Self.english[problem.messageKey])?.contains("{name}") ?? false
    }

    /// The language `text(for:name:)` is in: `locale` for a text the descriptor gave, the built-in
    /// language for the others; nil for a Swift validator's own message, which is the form's.
    public func language(of problem: Problem) -> String? {
        if case .custom(_, let message) = problem, !message.isEmpty { return nil }
        if overridden.contains(problem.messageKey) { return locale }
        return texts[problem.messageKey] == nil ? "en" : builtInLanguage
    }

    /// The codes a descriptor's `messages` may give texts for, with their English texts (whose
    /// `{placeholders}` are the ones each code fills in).
    public static var codes: [String: String] { english }

    static let english: [String: String] = [
        "required": "{name} can't be empty",
        "regex": "{name} is not in the expected format",
        "email": "{name} must be a valid email address",
        "url": "{name} must be a valid URL",
        "urlScheme": "{name} must be a URL starting with {schemes}",
        "fileType": "{name} must be a file of type {types}",
        "fileContent": "{name} is not a valid {type} file",
        "fileTooLarge": "{name} must be a file of at most {size}",
        "minLength": "{name} must be at least {count} characters",
        "maxLength": "{name} must be at most {count} characters",
        "minCount": "Choose at least {count} for {name}",
        "maxCount": "Choose at most {count} for {name}",
        "min": "{name} must be at least {bound}",
        "max": "{name} must be at most {bound}",
        "equalsRow": "{name} must match {other}",
        "predicate": "{name} is not valid",
        "custom": "{name} is not valid",
        "notANumber": "{name} must be a number",
        "inexactDecimal":
            "{name} cannot be kept exactly: use at most 38 significant digits and a size between 1e-128 and 1e165",
        "notAnInteger": "{name} must be a whole number",
        "integerOutOfRange": "{name} must be between -9223372036854775808 and 9223372036854775807",
        "notADate": "{name} must be a date (YYYY-MM-DD)",
        "notATime": "{name} must be a time (HH:MM)",
        "notADateTime": "{name} must be a date and time (YYYY-MM-DDTHH:MM)",
        "skippedDateTime": "{name} does not exist in the time zone {zone}: the clocks skip that time",
        "notADuration": "{name} must be a duration (H:MM:SS)",
        "notABoolean": "{name} must be true or false",
        "unknownOption": "{name} must be one of the listed choices",
        "optionsUnavailable": "{name} cannot be checked just now: please send the form again in a moment",
        "sentMoreThanOnce": "{name} was sent more than once",
        "wrongType": "{name} cannot be {sent}",
        "controlCharacters": "{name} contains control characters",
        "notAFile": "{name} must be a file",
        "tooManyItems": "{name} accepts at most {count} entries",
        "tooManyItemsSent": "At most {count} entries may be sent for {name}, empty ones included",
        "tooLongToCheck": "Some answers are too long to be checked: shorten the longest and send the form again",
        // Before an item's message that does not name the item itself (a validator's own `message`).
        "itemPrefix": "{name}: ",
        // What `wrongType`'s `{sent}` says: the kinds of value a client can send.
        "sentText": "text",
        "sentNumber": "a number",
        "sentBoolean": "true or false",
        "sentNull": "null",
        "sentList": "a list",
        "sentObject": "an object",
        "sentFile": "a file",
    ]

    static let chinese: [String: String] = [
        "required": "{name}不能为空",
        "regex": "{name}格式不正确",
        "email": "{name}必须是有效的电子邮件地址",
        "url": "{name}必须是有效的网址",
        "urlScheme": "{name}必须是以 {schemes} 开头的网址",
        "fileType": "{name}必须是以下类型的文件：{types}",
        "fileContent": "{name}不是有效的 {type} 文件",
        "fileTooLarge": "{name}的文件不能超过 {size}",
        "minLength": "{name}至少需要 {count} 个字符",
        "maxLength": "{name}最多 {count} 个字符",
        "minCount": "{name}至少选择 {count} 项",
        "maxCount": "{name}最多选择 {count} 项",
        "min": "{name}不能小于 {bound}",
        "max": "{name}不能大于 {bound}",
        "equalsRow": "{name}必须与{other}一致",
        "predicate": "{name}无效",
        "custom": "{name}无效",
        "notANumber": "{name}必须是数字",
        "inexactDecimal": "{name}无法精确保存：最多 38 位有效数字，绝对值须介于 1e-128 与 1e165 之间",
        "notAnInteger": "{name}必须是整数",
        "integerOutOfRange": "{name}必须在 -9223372036854775808 到 9223372036854775807 之间",
        "notADate": "{name}必须是日期（YYYY-MM-DD）",
        "notATime": "{name}必须是时间（HH:MM）",
        "notADateTime": "{name}必须是日期和时间（YYYY-MM-DDTHH:MM）",
        "skippedDateTime": "{name}在时区 {zone} 中不存在：时钟会跳过这一时间",
        "notADuration": "{name}必须是时长（H:MM:SS）",
        "notABoolean": "{name}必须是真或假",
        "unknownOption": "{name}必须是列出的选项之一",
        "optionsUnavailable": "暂时无法核对{name}，请稍后再次提交",
        "sentMoreThanOnce": "{name}被提交了多次",
        "wrongType": "{name}不能是{sent}",
        "controlCharacters": "{name}包含控制字符",
        "notAFile": "{name}必须是文件",
        "tooManyItems": "{name}最多接受 {count} 项",
        "tooManyItemsSent": "{name}最多可提交 {count} 项（含空项）",
        "tooLongToCheck": "部分回答太长，无法检查：请缩短最长的回答后重新提交",
        "itemPrefix": "{name}：",
        "sentText": "文本",
        "sentNumber": "数字",
        "sentBoolean": "布尔值",
        "sentNull": "空值",
        "sentList": "列表",
        "sentObject": "对象",
        "sentFile": "文件",
    ]
}

extension String {
    /// Every occurrence of `target` replaced; no Foundation needed.
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty, contains(target) else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
