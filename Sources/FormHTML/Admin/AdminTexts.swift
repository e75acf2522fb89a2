import FormModel

/// Every fixed string of the operator's view, in English or Simplified Chinese, as the reader's
/// `Accept-Language` chooses. `{name}` marks what is filled in.
public struct AdminTexts: Sendable {
    /// `en` or `zh-Hans`: the pages' `<html lang>`.
    public let language: String
    public let title, signIn, keyLabel, keyHelp, signOut, signedOut, sessionEnded, wrongKey, noReadScope: String
    public let tooManyAttempts, emptyKey, staleSignIn, signedInAs, forms, form, today, week, total, last, failed: String
    public let none, perDay, chartSummary, chartEmpty, dataTable, day, submissions, answer, count, charts: String
    public let days, searchLabel, since, until, show, clear, received, reference, noMatches, older, newest: String
    public let exportLead, csv, jsonLines, submission, version, versions, saved, deliveries, kind, destination: String
    public let state, attempts, lastError, noDeliveries, delete, deleteTitle, deleteWarning, cancel, deleted: String
    public let yes, no, noAnswer, secret, allForms, timesInUTC, edited, files, pending, delivered, failedState: String
    public let shownCount, answersOf, noCharts, noExport, item, newestFirst, current: String
    /// The titles and messages of the view's refusals.
    public let notFoundTitle, notFound, deniedTitle, lacksScope, staleAction, noStoreTitle, noStore: String
    public let unavailableTitle, unavailable, badSearch: String
}

extension AdminTexts {
    /// The texts for a reader of `locale`: Simplified Chinese for a Chinese one that is not Traditional,
    /// English otherwise.
    public init(locale: String) {
        self = LanguageTag.builtInTexts(for: locale) == "zh-Hans" ? .chinese : .english
    }

    /// English.
    static let english = AdminTexts(
        language: "en", title: "Submissions", signIn: "Sign in", keyLabel: "API key",
        keyHelp: "A key with the read scope, as formwright keys create made it (fwk_…).", signOut: "Sign out",
        signedOut: "You have signed out.", sessionEnded: "Your session has ended. Please sign in again.",
        wrongKey: "That is not a key this server knows. Check it and try again.",
        noReadScope: "That key may not read submissions: it lacks the read scope.",
        tooManyAttempts: "Too many wrong keys came from your address. Try again in {minutes} minutes.",
        emptyKey: "Enter an API key.", staleSignIn: "The sign-in form had expired. Please try again.",
        signedInAs: "Signed in with the key {name}", forms: "Forms", form: "Form", today: "Today (UTC)",
        week: "Last 7 days", total: "In all", last: "Last submission", failed: "Failed deliveries", none: "None yet",
        perDay: "Submissions per day, last {days} days",
        chartSummary: "{total} in all; the most, {count}, on {day}.", chartEmpty: "None in these days.",
        dataTable: "Data table", day: "Day", submissions: "Submissions", answer: "Answer", count: "Count",
        charts: "Charts", days: "{days} days", searchLabel: "Search the answers", since: "From", until: "To",
        show: "Show", clear: "Clear", received: "Received (UTC)", reference: "Reference",
        noMatches: "No submissions match.", older: "Older submissions", newest: "Newest submissions",
        exportLead: "Export what is shown:", csv: "CSV", jsonLines: "JSON lines", submission: "Submission {id}",
        version: "Version {version}", versions: "Versions", saved: "Saved (UTC)", deliveries: "Deliveries",
        kind: "Kind", destination: "Destination", state: "State", attempts: "Attempts", lastError: "Last error",
        noDeliveries: "None.", delete: "Delete", deleteTitle: "Delete submission {id}?",
        deleteWarning: "Its answers, files and versions are erased for good, and cannot be brought back.",
        cancel: "Cancel", deleted: "Submission {id} was deleted.", yes: "Yes", no: "No", noAnswer: "No answer",
        secret: "Kept as a hash", allForms: "All forms", timesInUTC: "Times are in UTC.", edited: "Edited {time}",
        files: "Files", pending: "Waiting", delivered: "Delivered", failedState: "Failed",
        shownCount: "{count} shown", answersOf: "Answers, last {days} days",
        noCharts: "This form has no yes-or-no rows or lists of options to chart.",
        noExport: "Exports need a key with the export scope.", item: "{title} {number}",
        newestFirst: "Newest first", current: "current", notFoundTitle: "Not found",
        notFound:
            "There is no such form or submission here, or your key may not read it. A deleted submission is gone.",
        deniedTitle: "Not allowed", lacksScope: "The key {name} lacks the {scope} scope this needs.",
        staleAction: "That page had expired, so nothing was changed. Go back, reload it and try again.",
        noStoreTitle: "No database",
        noStore: "The operator's view reads submissions from a database: start the server with --store sqlite:PATH "
            + "or a PostgreSQL URL.",
        unavailableTitle: "Try again in a moment", unavailable: "The database does not answer just now.",
        badSearch: "Give days as 2026-11-28, the first no later than the last.")

    /// Simplified Chinese.
    static let chinese = AdminTexts(
        language: "zh-Hans", title: "提交记录", signIn: "登录", keyLabel: "API 密钥",
        keyHelp: "具有 read 权限的密钥，即 formwright keys create 生成的 fwk_… 。", signOut: "退出登录",
        signedOut: "您已退出登录。", sessionEnded: "会话已结束，请重新登录。", wrongKey: "服务器不认识这个密钥，请检查后重试。",
        noReadScope: "该密钥没有 read 权限，不能查看提交记录。", tooManyAttempts: "来自您地址的错误密钥过多，请在 {minutes} 分钟后再试。",
        emptyKey: "请输入 API 密钥。", staleSignIn: "登录表单已过期，请重试。", signedInAs: "已使用密钥 {name} 登录", forms: "表单",
        form: "表单", today: "今天（UTC）", week: "最近 7 天", total: "总计", last: "最近一次提交", failed: "投递失败",
        none: "尚无", perDay: "最近 {days} 天每日提交数", chartSummary: "共 {total} 条；最多的一天是 {day}，{count} 条。",
        chartEmpty: "这些天没有提交。", dataTable: "数据表", day: "日期", submissions: "提交数", answer: "回答", count: "数量",
        charts: "图表", days: "{days} 天", searchLabel: "搜索回答", since: "起始日期", until: "截止日期", show: "显示",
        clear: "清除", received: "收到时间（UTC）", reference: "编号", noMatches: "没有符合条件的提交。", older: "更早的提交",
        newest: "最新的提交", exportLead: "导出当前显示的内容：", csv: "CSV", jsonLines: "JSON lines", submission: "提交 {id}",
        version: "第 {version} 版", versions: "版本", saved: "保存时间（UTC）", deliveries: "投递", kind: "类型",
        destination: "目的地", state: "状态", attempts: "尝试次数", lastError: "最近的错误", noDeliveries: "无。",
        delete: "删除", deleteTitle: "删除提交 {id}？", deleteWarning: "其回答、文件和各个版本将被永久删除，无法恢复。",
        cancel: "取消", deleted: "提交 {id} 已删除。", yes: "是", no: "否", noAnswer: "未回答", secret: "仅保存哈希值",
        allForms: "所有表单", timesInUTC: "时间均为 UTC。", edited: "修改于 {time}", files: "文件", pending: "等待中",
        delivered: "已投递", failedState: "失败", shownCount: "显示 {count} 条", answersOf: "最近 {days} 天的回答",
        noCharts: "此表单没有可绘制图表的是非题或选项列表。", noExport: "导出需要具有 export 权限的密钥。",
        item: "{title} {number}", newestFirst: "最新的在前", current: "当前", notFoundTitle: "未找到",
        notFound: "这里没有这个表单或提交，或者您的密钥无权查看。已删除的提交无法找回。", deniedTitle: "不允许",
        lacksScope: "密钥 {name} 缺少此操作所需的 {scope} 权限。", staleAction: "该页面已过期，未做任何更改。请返回、刷新后重试。",
        noStoreTitle: "没有数据库", noStore: "管理视图从数据库读取提交记录：请用 --store sqlite:PATH 或 PostgreSQL URL 启动服务器。",
        unavailableTitle: "请稍后再试", unavailable: "数据库暂时没有响应。", badSearch: "日期格式为 2026-11-28，且起始日期不能晚于截止日期。")
}

extension String {
    /// The text with each `{name}` of `values` filled in.
    public func filling(_ values: [String: String]) -> String {
        values.reduce(self) { text, pair in text.replacing("{\(pair.key)}", with: pair.value) }
    }
}
