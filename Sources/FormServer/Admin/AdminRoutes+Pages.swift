import FormEngine
import FormHTML
import FormModel
import FormStore
import Foundation
import HTTPServer
import Logging

/// The overview, a form's submissions and its charts: what the store counts and lists, laid out for
/// `AdminPages`.
extension AdminRoutes {
    /// How many submissions a page of the table shows.
    static let pageSize = 50
    /// How many characters of an answer a cell of the table shows; the submission's page shows all.
    static let cellLength = 80

    /// `GET /admin`: every form the key may read, with its counts and its last 30 days.
    func overview(_ context: Context) throws -> Response {
        let today = Int(context.now / 86_400_000)
        let failed = delivering.isEmpty ? [:] : try context.database.outbox.counts()
        let summaries = try order.filter { context.key.forms.isEmpty || context.key.forms.contains($0) }.map {
            id -> FormSummary in
            let counts = try context.database.counts(formID: id, sinceHour: (today - 29) * 24)
            let days = Self.days(counts, through: today, count: 30)
            return FormSummary(
                name: name(id), today: days.last?.count ?? 0, week: days.suffix(7).reduce(0) { $0 + $1.count },
                total: counts.total, last: counts.last.map { Self.minute($0.milliseconds) },
                failed: delivering.contains(id) ? failed[id]?.failed ?? 0 : nil, days: days)
        }
        return Self.html(.ok, AdminPages.overview(frame: context.frame, forms: summaries))
    }

    /// `GET /admin/forms/{id}?q=&since=&until=&cursor=`: a page of the form's submissions, newest
    /// first, searched and ranged as asked, with the last 30 days drawn above.
    func submissions(_ context: Context) throws -> Response {
        let query = context.request.query
        let texts = context.texts
        let path = "/admin" + FormRoutes.path(context.formID)
        let search = Search(query, form: context.form)
        let table = context.form.map(SubmissionTable.init)
        var view = SubmissionsView(
            name: name(context.formID), columns: table?.rowTitles ?? [], rows: [], query: search.text,
            since: search.since, until: search.until)
        // Said only of a submission that is not there: a link cannot make the page claim a deletion.
        if let deleted = query["deleted"].flatMap(SubmissionID.init),
            try context.database.submission(formID: context.formID, id: deleted) == nil
        {
            view.notice = texts.deleted.filling(["id": deleted.description])
        }
        if let range = search.range {
            let (found, more) = try Self.page(context.database, context.formID, range, search)
            view.rows = found.map { submission in
                SubmissionsView.Row(
                    id: submission.id.description, received: Self.minute(submission.received),
                    cells: (table?.answers(httpParameters: submission.httpParameters) ?? []).enumerated().map {
                        table?.secret[$0.offset] == true
                            ? texts.secret : AdminPages.shortened($0.element, to: Self.cellLength)
                    })
            }
            if more, let last = found.last { view.older = path + "?" + search.parameters(cursor: last.id) }
            if search.cursor != nil { view.newest = path + (search.isEmpty ? "" : "?" + search.parameters()) }
            if context.may(.export) {
                let filter = search.isEmpty ? "" : "?" + search.parameters()
                view.exports = (path + "/export.csv" + filter, path + "/export.jsonl" + filter)
            }
        } else {
            view.problem = texts.badSearch
        }
        let today = Int(context.now / 86_400_000)
        let counts = try context.database.counts(formID: context.formID, sinceHour: (today - 29) * 24)
        let page = AdminPages.submissions(
            frame: context.frame, view: view, days: Self.days(counts, through: today, count: 30))
        return Self.html(view.problem == nil ? .ok : .badRequest, page)
    }

    /// The newest `pageSize` submissions in `range` that `search` finds, and whether there are more.
    /// The store gives those whose payload holds the text; of those, the ones that hold it in an answer
    /// rather than a row's tag are kept, reading on until the page is full and one more is found.
    private static func page(
        _ database: any SubmissionDatabase, _ formID: String, _ range: SubmissionRange, _ search: Search
    ) throws -> (found: [StoredSubmission], more: Bool) {
        var found: [StoredSubmission] = []
        var range = range
        while true {
            let batch = try database.submissions(
                formID: formID, in: range, containing: search.needle, limit: pageSize + 1)
            for submission in batch where search.finds(submission.httpParameters) {
                if found.count == pageSize { return (found, true) }
                found.append(submission)
            }
            guard batch.count > pageSize, let last = batch.last else { return (found, false) }
            range.before = last.id
        }
    }

    /// `GET /admin/forms/{id}/charts?days=30|90`: submissions per day, and each charted row's answers.
    func charts(_ context: Context) throws -> Response {
        let span = context.request.query["days"] == "90" ? 90 : 30
        let today = Int(context.now / 86_400_000)
        let since = (today - span + 1) * 24
        let counts = try context.database.counts(formID: context.formID, sinceHour: since)
        let answers = try context.database.answerCounts(formID: context.formID, sinceHour: since)
        let charted = context.form.map(ChartedRows.init)?.rows ?? []
        let texts = context.texts
        let charts = charted.map { row in
            AnswerChart(
                title: row.title,
                bars: row.options.map { option in
                    let label = row.isBoolean ? (option.value == "true" ? texts.yes : texts.no) : option.title
                    return (label, answers[ChartedRows.answer(row.tag, option.value)] ?? 0)
                })
        }
        let page = AdminPages.charts(
            frame: context.frame, name: name(context.formID), days: span,
            perDay: Self.days(counts, through: today, count: span), answers: charts)
        return Self.html(.ok, page)
    }

    /// `GET /admin/forms/{id}/export.csv` or `.jsonl`, with the page's search: what the table shows,
    /// every page of it, oldest first.
    func export(_ context: Context, csv: Bool) throws -> Response {
        let search = Search(context.request.query, form: context.form)
        guard let range = search.range else {
            throw Refusal(status: .badRequest, title: context.texts.deniedTitle, message: context.texts.badSearch)
        }
        let cursor = try context.database.cursor(
            formID: context.formID, formValues: !csv, range: range, containing: search.needle)
        return SubmissionAPI.exportResponse(
            cursor, form: context.form, formID: context.formID, csv: csv, logger: logger
        ) { search.finds($0.httpParameters) }
    }

    /// The form `id`'s name as pages show it.
    func name(_ id: String) -> FormName {
        FormName(id: id, title: forms[id]?.form.title, locale: forms[id]?.form.locale ?? "en")
    }

    /// The last `count` days through day `today` (days since 1970, UTC), oldest first, from `counts`' hours.
    static func days(_ counts: SubmissionCounts, through today: Int, count: Int) -> [DayCount] {
        var perDay = [Int](repeating: 0, count: count)
        for (hour, number) in counts.hours {
            let index = hour / 24 - (today - count + 1)
            if perDay.indices.contains(index) { perDay[index] += number }
        }
        return perDay.enumerated().map { offset, number in
            DayCount(day: day(today - count + 1 + offset), count: number)
        }
    }

    /// Day `day` (since 1970, UTC) as `2026-11-28`.
    static func day(_ day: Int) -> String {
        String(minute(UInt64(max(day, 0)) * 86_400_000).prefix(10))
    }

    /// Millisecond `milliseconds` since 1970 to the minute, UTC: `2026-11-28 09:30`.
    static func minute(_ milliseconds: UInt64) -> String {
        minute(Date(timeIntervalSince1970: Double(milliseconds) / 1000).ISO8601Format())
    }

    /// An ISO 8601 instant (`2026-11-28T09:30:05.123Z`, UTC) to the minute: `2026-11-28 09:30`.
    static func minute(_ instant: String) -> String {
        String(instant.prefix(16)).replacingOccurrences(of: "T", with: " ")
    }
}
