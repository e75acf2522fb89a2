extension PageTexts {
    /// English.
    public static let english = PageTexts(
        language: "en", submit: "Submit", oneProblem: "There is a problem", severalProblems: "There are %d problems",
        errorPrefix: "Error: ", addAnother: "Add another", remove: "Remove", moveUp: "Move up", moveDown: "Move down",
        itemAdded: "{item} added", itemRemoved: "{item} removed", itemMovedUp: "{item} moved up",
        itemMovedDown: "{item} moved down",
        requiredMarker: "required", chooseOption: "Choose…", yes: "Yes", no: "No", helpFor: "Help for {name}",
        search: "Search", matchesFor: "Matches for {name}",
        noMatches: "Nothing matches “{query}”: try fewer letters or another spelling",
        searchUnavailable: "The list cannot be searched just now: please try again in a moment",
        filterOptions: "Search {name}",
        decrease: "Decrease {name}",
        increase: "Increase {name}",
        durationHelp: "Hours, minutes and seconds, like 1:30:00",
        timeZoneHelp: "Time in {zone}", thankYou: "Thank you", thankYouMessage: "Your answers have been sent.",
        thankYouReference: "Your reference: {reference}",
        editLinkNote: "You can change your answers later with the link below. Anyone who has it can see and change "
            + "them, so keep it to yourself.",
        editLink: "Change your answers",
        editing: "You are changing the answers you sent earlier (reference {reference}). The earlier version is kept.",
        mailSubject: "New answers to {title}", mailIntro: "{title} received new answers (reference {reference}):",
        confirmationSubject: "Your answers to {title}",
        confirmationIntro: "Thank you. These are the answers you sent to {title} (reference {reference}):",
        formsTitle: "Forms",
        notFound: "Page not found", notFoundMessage: "There is no page at this address.",
        tooLarge: "Too large to send",
        tooLargeMessage: "What you sent is larger than this site accepts ({size} at most), so nothing was received. "
            + "Please go back, choose smaller files and send the form again.",
        refused: "Request not accepted",
        refusedMessage: "This site could not take that request. If you followed a link or sent a form from "
            + "another site, go back and try from this site's own pages. The server's reason:",
        sessionExpired: "Your session has expired",
        sessionExpiredMessage: "The form could not be sent because it was open too long or came from elsewhere. "
            + "Please go back, reload the form and send it again.",
        recordNotFound: "Not found",
        recordNotFoundMessage:
            "Nothing is saved at this address: it may have been deleted, or the address is mistyped.",
        recordRefused: "This record cannot be edited",
        recordRefusedMessage: "It was saved before the form changed, so editing it here could lose some of its values. "
            + "Nothing has been changed. Please tell the site's administrators.",
        recordChanged: "Someone else saved this record after you opened it. Send the form again to replace their "
            + "changes with your values below, or open the record again to see theirs.",
        notKept: "Your answers could not be saved just now. What you typed is still below (any file must be "
            + "chosen again): please send the form again in a moment.",
        heldFile: "{name} ({size}) is kept and will be sent with the form. Choose another file to replace it.",
        back: "Back")

    /// Simplified Chinese.
    public static let chinese = PageTexts(
        language: "zh-Hans", submit: "提交", oneProblem: "有 1 个问题", severalProblems: "有 %d 个问题",
        errorPrefix: "错误：", addAnother: "再添加一项", remove: "删除", moveUp: "上移", moveDown: "下移",
        itemAdded: "已添加{item}", itemRemoved: "已删除{item}", itemMovedUp: "{item}已上移", itemMovedDown: "{item}已下移",
        requiredMarker: "必填", chooseOption: "请选择…", yes: "是", no: "否", helpFor: "{name}的说明", search: "搜索",
        matchesFor: "{name}的搜索结果",
        noMatches: "没有与“{query}”匹配的结果，请减少字数或换一种写法", searchUnavailable: "暂时无法搜索，请稍后再试",
        filterOptions: "搜索{name}",
        decrease: "减少{name}",
        increase: "增加{name}", durationHelp: "时:分:秒，例如 1:30:00",
        timeZoneHelp: "{zone} 时间",
        thankYou: "谢谢",
        thankYouMessage: "您的回答已提交。", thankYouReference: "您的编号：{reference}",
        editLinkNote: "您以后可以通过下面的链接修改回答。任何拿到此链接的人都能查看和修改您的回答，请勿分享。", editLink: "修改您的回答",
        editing: "您正在修改之前提交的回答（编号 {reference}）。之前的版本会保留。",
        mailSubject: "「{title}」收到新的回答", mailIntro: "「{title}」收到新的回答（编号 {reference}）：",
        confirmationSubject: "您对「{title}」的回答", confirmationIntro: "谢谢。以下是您提交给「{title}」的回答（编号 {reference}）：",
        formsTitle: "表单", notFound: "找不到页面",
        notFoundMessage: "此地址没有页面。",
        tooLarge: "内容过大，无法提交", tooLargeMessage: "您提交的内容超过了本网站接受的上限（最多 {size}），因此未被接收。请返回，选择较小的文件后再次提交。",
        refused: "请求未被接受", refusedMessage: "本网站无法处理该请求。如果您是从其他网站的链接或表单来到这里，请返回并从本网站的页面重试。服务器给出的原因：",
        sessionExpired: "会话已过期", sessionExpiredMessage: "表单打开时间过长或来自其他网站，因此无法提交。请返回，重新加载表单后再次提交。",
        recordNotFound: "找不到记录", recordNotFoundMessage: "此地址没有保存的记录：它可能已被删除，或地址有误。",
        recordRefused: "无法编辑此记录", recordRefusedMessage: "此记录保存于表单更改之前，在此编辑可能会丢失部分内容。记录未作任何更改。请告知网站管理员。",
        recordChanged: "您打开此记录后，其他人保存了它。再次提交将用您下面填写的内容替换他们的修改；如要先查看他们的修改，请重新打开此记录。",
        notKept: "您的回答暂时无法保存。您填写的内容仍在下方（如有文件，需要重新选择），请稍后再次提交。",
        heldFile: "{name}（{size}）已保留，将随表单一起提交。选择其他文件即可替换。",
        back: "返回")

    /// The codes of the page's texts a descriptor's `messages` may replace, with their English texts
    /// (whose `{placeholders}` and `%d` are the ones each code fills in).
    public static var codes: [String: String] { fields.mapValues { PageTexts.english[keyPath: $0] } }

    /// Each replaceable text by its code (the property's name).
    private static let fields: [String: any WritableKeyPath<PageTexts, String> & Sendable] = [
        "submit": \.submit, "oneProblem": \.oneProblem, "severalProblems": \.severalProblems,
        "errorPrefix": \.errorPrefix, "addAnother": \.addAnother, "remove": \.remove, "moveUp": \.moveUp,
        "moveDown": \.moveDown, "itemAdded": \.itemAdded, "itemRemoved": \.itemRemoved,
        "itemMovedUp": \.itemMovedUp, "itemMovedDown": \.itemMovedDown, "requiredMarker": \.requiredMarker,
        "chooseOption": \.chooseOption, "yes": \.yes, "no": \.no, "filterOptions": \.filterOptions,
        "helpFor": \.helpFor, "search": \.search, "matchesFor": \.matchesFor, "noMatches": \.noMatches,
        "searchUnavailable": \.searchUnavailable,
        "decrease": \.decrease, "increase": \.increase, "durationHelp": \.durationHelp,
        "timeZoneHelp": \.timeZoneHelp, "thankYou": \.thankYou, "thankYouMessage": \.thankYouMessage,
        "thankYouReference": \.thankYouReference, "editLinkNote": \.editLinkNote, "editLink": \.editLink,
        "editing": \.editing, "mailSubject": \.mailSubject, "mailIntro": \.mailIntro,
        "confirmationSubject": \.confirmationSubject, "confirmationIntro": \.confirmationIntro,
        "recordChanged": \.recordChanged, "notKept": \.notKept, "heldFile": \.heldFile,
    ]

    /// Replaces the text named `key` (the property's name); false for a key that names none, which is
    /// left to the validators' messages (they share the dictionary).
    @discardableResult
    mutating func override(_ key: String, with text: String) -> Bool {
        guard let field = Self.fields[key] else { return false }
        self[keyPath: field] = text
        return true
    }
}
