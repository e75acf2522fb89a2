/// The pages of one form: its submissions, one submission, and its charts.
extension AdminPages {
    /// A page of a form's submissions: the search (text and days), a chart of its last 30 days, the
    /// table, newest first, and the links to older pages and to the exports of what is shown.
    public static func submissions(frame: AdminFrame, view: SubmissionsView, days: [DayCount]) -> [UInt8] {
        let texts = frame.texts
        let path = "/admin/forms/" + SafeURL.segment(view.name.id)
        var writer = HTMLWriter(capacity: 8192 + view.rows.count * 512)
        writeStart(title: view.name.title, texts: texts, frame: frame, errorPrefix: view.problem != nil, into: &writer)
        if let notice = view.notice {
            writer.markup("<p class=\"fw-notice\" role=\"status\">")
            writer.text(notice)
            writer.markup("</p>\n")
        }
        writer.markup("<p class=\"fw-links\"><a")
        writer.attribute("href", path + "/charts")
        writer.markup(">")
        writer.text(texts.charts)
        writer.markup("</a></p>\n")
        AdminCharts.writeDays(
            days, id: "fw-days", caption: texts.perDay.filling(["days": "30"]), texts: texts, table: true,
            into: &writer)
        writeSearch(view, action: path, texts: texts, into: &writer)
        if view.rows.isEmpty {
            writer.markup("<p class=\"fw-empty\">")
            writer.text(texts.noMatches)
            writer.markup("</p>\n")
        } else {
            writeTable(view, path: path, texts: texts, into: &writer)
        }
        if view.newest != nil || view.older != nil {
            writer.markup("<nav class=\"fw-pages\"")
            writer.attribute("aria-label", texts.title)
            writer.markup(">")
            if let newest = view.newest { writeLink(newest, texts.newest, into: &writer) }
            if let older = view.older { writeLink(older, texts.older, into: &writer) }
            writer.markup("</nav>\n")
        }
        writer.markup("<p class=\"fw-exports\">")
        if let exports = view.exports {
            writer.text(texts.exportLead)
            writer.markup(" ")
            writeLink(exports.csv, texts.csv, into: &writer)
            writer.markup(" ")
            writeLink(exports.jsonLines, texts.jsonLines, into: &writer)
        } else {
            writer.text(texts.noExport)
        }
        writer.markup("</p>\n")
        writeEnd(into: &writer)
        return writer.bytes
    }

    /// The search: text, and a range of days, all optional; it is sent as a `GET`, so a search has an address.
    private static func writeSearch(
        _ view: SubmissionsView, action: String, texts: AdminTexts, into writer: inout HTMLWriter
    ) {
        writer.markup("<form class=\"fw-search\" method=\"get\" role=\"search\"")
        writer.attribute("action", action)
        writer.markup(">\n")
        if let problem = view.problem {
            writer.markup("<p class=\"fw-error\" role=\"alert\">")
            writer.text(problem)
            writer.markup("</p>\n")
        }
        let fields: [(id: StaticString, name: StaticString, type: StaticString, label: String, value: String)] = [
            ("fw-q", "q", "search", texts.searchLabel, view.query),
            ("fw-since", "since", "date", texts.since, view.since),
            ("fw-until", "until", "date", texts.until, view.until),
        ]
        for field in fields {
            writer.markup("<div class=\"fw-row\"><label")
            writer.attribute("for", String(describing: field.id))
            writer.markup(">")
            writer.text(field.label)
            writer.markup("</label><input")
            writer.attribute("id", String(describing: field.id))
            writer.attribute("name", String(describing: field.name))
            writer.attribute("type", String(describing: field.type))
            writer.attribute("value", field.value)
            writer.markup("></div>\n")
        }
        writer.markup("<div class=\"fw-actions\"><button type=\"submit\">")
        writer.text(texts.show)
        writer.markup("</button><a")
        writer.attribute("href", action)
        writer.markup(">")
        writer.text(texts.clear)
        writer.markup("</a></div>\n</form>\n")
    }

    /// The table: a submission a row, its reference linking to it, then its received time and cells.
    private static func writeTable(
        _ view: SubmissionsView, path: String, texts: AdminTexts, into writer: inout HTMLWriter
    ) {
        writer.markup(
            "<div class=\"fw-table-wrap\" role=\"region\" tabindex=\"0\" aria-labelledby=\"fw-table-caption\">\n")
        writer.markup("<table class=\"fw-submissions\">\n<caption id=\"fw-table-caption\">")
        writer.text(
            texts.title + " · " + texts.newestFirst + " · "
                + texts.shownCount.filling(["count": String(view.rows.count)]))
        writer.markup("</caption>\n<thead><tr>")
        for heading in [texts.reference, texts.received] + view.columns {
            writer.markup("<th scope=\"col\">")
            writer.text(heading)
            writer.markup("</th>")
        }
        writer.markup("</tr></thead>\n<tbody>\n")
        for row in view.rows {
            writer.markup("<tr><th scope=\"row\"><a")
            writer.attribute("href", path + "/submissions/" + SafeURL.segment(row.id))
            writer.markup(">")
            writer.text(row.id)
            writer.markup("</a></th>")
            writeCell(row.received, into: &writer)
            for cell in row.cells { writeCell(cell, into: &writer) }
            writer.markup("</tr>\n")
        }
        writer.markup("</tbody>\n</table>\n</div>\n")
    }

    /// One submission: its form's sections with their answers, its files, its versions and deliveries,
    /// and the way to delete it.
    public static func submission(frame: AdminFrame, view: SubmissionView) -> [UInt8] {
        let texts = frame.texts
        var writer = HTMLWriter(capacity: 8192)
        writeStart(
            title: texts.submission.filling(["id": view.id]), texts: texts, frame: frame, form: view.name,
            into: &writer)
        writer.markup("<p class=\"fw-meta\">")
        writer.text(texts.received + ": " + view.received)
        if let edited = view.edited {
            writer.markup(" · ")
            writer.text(
                texts.version.filling(["version": String(view.version)]) + ", " + texts.edited.filling(["time": edited])
            )
        }
        writer.markup("</p>\n")
        for (index, section) in view.sections.enumerated() {
            // A section without a title is a group of rows, not a region of the page.
            if section.title != nil {
                writer.markup("<section class=\"fw-section fw-record\"")
                writer.attribute("aria-labelledby", "fw-section-\(index)")
                writer.markup(">\n")
            } else {
                writer.markup("<div class=\"fw-section fw-record\">\n")
            }
            if let title = section.title {
                writer.markup("<h2")
                writer.attribute("id", "fw-section-\(index)")
                writer.markup(">")
                writer.text(title)
                writer.markup("</h2>\n")
            }
            writer.markup("<dl>\n")
            for field in section.fields {
                writer.markup("<div><dt>")
                writer.text(field.label)
                writer.markup("</dt><dd>")
                writeValue(field.value, texts: texts, into: &writer)
                writer.markup("</dd></div>\n")
            }
            writer.markup(section.title != nil ? "</dl>\n</section>\n" : "</dl>\n</div>\n")
        }
        if !view.versions.isEmpty { writeVersions(view.versions, texts: texts, into: &writer) }
        writeDeliveries(view.deliveries, texts: texts, into: &writer)
        if let delete = view.delete {
            writer.markup("<p class=\"fw-actions\"><a class=\"fw-danger\"")
            writer.attribute("href", delete)
            writer.markup(">")
            writer.text(texts.delete)
            writer.markup("</a></p>\n")
        }
        writeEnd(into: &writer)
        return writer.bytes
    }

    private static func writeValue(_ value: SubmissionView.Value, texts: AdminTexts, into writer: inout HTMLWriter) {
        switch value {
        case .text(let text):
            writer.markup("<span class=\"fw-value\">")
            writer.text(text)
            writer.markup("</span>")
        case .list(let items):
            writer.markup("<ul>")
            for item in items {
                writer.markup("<li>")
                writer.text(item)
                writer.markup("</li>")
            }
            writer.markup("</ul>")
        case .file(let name, let href):
            writer.markup("<a download")
            writer.attribute("href", href)
            writer.markup(">")
            writer.text(name)
            writer.markup("</a>")
        case .noAnswer:
            writer.markup("<span class=\"fw-muted\">")
            writer.text(texts.noAnswer)
            writer.markup("</span>")
        case .secret:
            writer.markup("<span class=\"fw-muted\">")
            writer.text(texts.secret)
            writer.markup("</span>")
        }
    }

    private static func writeVersions(
        _ versions: [SubmissionView.Version], texts: AdminTexts, into writer: inout HTMLWriter
    ) {
        writer.markup("<h2>")
        writer.text(texts.versions)
        writer.markup("</h2>\n<ol class=\"fw-versions\">\n")
        for version in versions {
            let label = texts.version.filling(["version": String(version.number)]) + " · " + version.saved
            writer.markup("<li>")
            if version.isShown {
                writer.markup("<span aria-current=\"page\">")
                writer.text(label)
                writer.markup("</span>")
            } else {
                writeLink(version.href, label, into: &writer)
            }
            writer.markup("</li>\n")
        }
        writer.markup("</ol>\n")
    }

    private static func writeDeliveries(
        _ deliveries: [SubmissionView.Delivery], texts: AdminTexts, into writer: inout HTMLWriter
    ) {
        writer.markup("<h2>")
        writer.text(texts.deliveries)
        writer.markup("</h2>\n")
        guard !deliveries.isEmpty else {
            writer.markup("<p>")
            writer.text(texts.noDeliveries)
            writer.markup("</p>\n")
            return
        }
        writer.markup(
            "<div class=\"fw-table-wrap\" role=\"region\" tabindex=\"0\" aria-labelledby=\"fw-deliveries\">\n<table>\n")
        writer.markup("<caption id=\"fw-deliveries\">")
        writer.text(texts.deliveries)
        writer.markup("</caption>\n<thead><tr>")
        for heading in [texts.kind, texts.destination, texts.state, texts.attempts, texts.lastError] {
            writer.markup("<th scope=\"col\">")
            writer.text(heading)
            writer.markup("</th>")
        }
        writer.markup("</tr></thead>\n<tbody>\n")
        for delivery in deliveries {
            writer.markup("<tr>")
            writeCell(delivery.kind, into: &writer)
            writeCell(delivery.destination, into: &writer)
            let state =
                switch delivery.state {
                case "delivered": texts.delivered
                case "failed": texts.failedState
                default: texts.pending
                }
            writeCell(state, into: &writer)
            writeCell(String(delivery.attempts), into: &writer)
            writeCell(delivery.lastError ?? "", into: &writer)
            writer.markup("</tr>\n")
        }
        writer.markup("</tbody>\n</table>\n</div>\n")
    }

    /// A form's charts over its last `days` days: submissions per day, then each charted row's answers.
    public static func charts(
        frame: AdminFrame, name: FormName, days: Int, perDay: [DayCount], answers: [AnswerChart]
    ) -> [UInt8] {
        let texts = frame.texts
        let path = "/admin/forms/" + SafeURL.segment(name.id) + "/charts"
        var writer = HTMLWriter(capacity: 16384)
        writeStart(title: texts.charts, texts: texts, frame: frame, form: name, into: &writer)
        writer.markup("<nav class=\"fw-pages\"")
        writer.attribute("aria-label", texts.charts)
        writer.markup(">")
        for span in [30, 90] {
            let label = texts.days.filling(["days": String(span)])
            if span == days {
                writer.markup("<span aria-current=\"page\">")
                writer.text(label)
                writer.markup("</span>")
            } else {
                writeLink(path + "?days=\(span)", label, into: &writer)
            }
        }
        writer.markup("</nav>\n")
        AdminCharts.writeDays(
            perDay, id: "fw-days", caption: texts.perDay.filling(["days": String(days)]), texts: texts, table: true,
            into: &writer)
        writer.markup("<h2>")
        writer.text(texts.answersOf.filling(["days": String(days)]))
        writer.markup("</h2>\n")
        if answers.isEmpty {
            writer.markup("<p>")
            writer.text(texts.noCharts)
            writer.markup("</p>\n")
        }
        for (index, chart) in answers.enumerated() {
            AdminCharts.writeAnswers(chart, id: "fw-answers-\(index)", texts: texts, into: &writer)
        }
        writeEnd(into: &writer)
        return writer.bytes
    }

    static func writeLink(_ href: String, _ text: String, into writer: inout HTMLWriter) {
        writer.markup("<a")
        writer.attribute("href", href)
        writer.markup(">")
        writer.text(text)
        writer.markup("</a>")
    }
}
