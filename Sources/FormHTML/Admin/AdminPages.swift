import FormModel

/// The pages of the operator's view, `/admin`: server-drawn HTML that works without a script, in the
/// reader's language, every value escaped as it is written (submissions are anyone's text).
///
/// ```swift
/// let bytes = AdminPages.overview(frame: frame, forms: summaries)
/// ```
public enum AdminPages {
    /// The sign-in page: one password field for the key, its `_csrf` token and where to go next.
    /// `notice` says why the reader is here (signed out, session ended); `problem`, what was wrong with
    /// the key sent.
    public static func signIn(
        texts: AdminTexts, csrf: String, next: String, notice: String? = nil, problem: String? = nil
    ) -> [UInt8] {
        var writer = HTMLWriter(capacity: 2048)
        writeStart(title: texts.signIn, texts: texts, frame: nil, errorPrefix: problem != nil, into: &writer)
        if let notice {
            writer.markup("<p class=\"fw-notice\" role=\"status\">")
            writer.text(notice)
            writer.markup("</p>\n")
        }
        writer.markup("<form class=\"fw-sign-in\" method=\"post\" action=\"/admin/sign-in\">\n")
        writeHidden("_csrf", csrf, into: &writer)
        writeHidden("next", next, into: &writer)
        writer.markup("<div class=\"fw-row\">\n<label for=\"fw-key\">")
        writer.text(texts.keyLabel)
        writer.markup("</label>\n<p class=\"fw-help\" id=\"fw-key-help\">")
        writer.text(texts.keyHelp)
        writer.markup("</p>\n")
        if let problem {
            writer.markup("<p class=\"fw-error\" id=\"fw-key-error\">")
            writer.text(problem)
            writer.markup("</p>\n")
        }
        writer.markup("<input id=\"fw-key\" name=\"key\" type=\"password\" autocomplete=\"current-password\" required")
        writer.markup(" spellcheck=\"false\" autocapitalize=\"none\"")
        writer.attribute("aria-describedby", problem == nil ? "fw-key-help" : "fw-key-error fw-key-help")
        if problem != nil { writer.markup(" aria-invalid=\"true\" autofocus") }
        writer.markup(">\n</div>\n<button type=\"submit\">")
        writer.text(texts.signIn)
        writer.markup("</button>\n</form>\n")
        writeEnd(into: &writer)
        return writer.bytes
    }

    /// The forms overview: a table of each form's counts, with a small chart of its last 30 days.
    public static func overview(frame: AdminFrame, forms: [FormSummary]) -> [UInt8] {
        let texts = frame.texts
        var writer = HTMLWriter(capacity: 4096 + forms.count * 2048)
        writeStart(title: texts.title, texts: texts, frame: frame, into: &writer)
        writer.markup("<div class=\"fw-table-wrap\" role=\"region\" tabindex=\"0\" aria-labelledby=\"fw-forms\">\n")
        writer.markup("<table class=\"fw-overview\">\n<caption id=\"fw-forms\">")
        writer.text(texts.forms)
        writer.markup("</caption>\n<thead><tr>")
        for heading in [texts.form, texts.today, texts.week, texts.total, texts.last, texts.failed] {
            writer.markup("<th scope=\"col\">")
            writer.text(heading)
            writer.markup("</th>")
        }
        writer.markup("<th scope=\"col\">")
        writer.text(texts.perDay.filling(["days": "30"]))
        writer.markup("</th></tr></thead>\n<tbody>\n")
        for (index, form) in forms.enumerated() {
            writer.markup("<tr><th scope=\"row\"><a")
            writer.attribute("href", "/admin/forms/" + SafeURL.segment(form.name.id))
            writer.markup(">")
            writeName(form.name, texts: texts, into: &writer)
            writer.markup("</a></th>")
            for number in [form.today, form.week, form.total] { writeCell(String(number), into: &writer) }
            writeCell(form.last ?? texts.none, into: &writer)
            writeCell(form.failed.map(String.init) ?? "–", into: &writer)
            writer.markup("<td>")
            AdminCharts.writeDays(
                form.days, id: "fw-days-\(index)", caption: texts.perDay.filling(["days": "30"]), texts: texts,
                table: false, into: &writer)
            writer.markup("</td></tr>\n")
        }
        writer.markup("</tbody>\n</table>\n</div>\n<p class=\"fw-help\">")
        writer.text(texts.timesInUTC)
        writer.markup("</p>\n")
        writeEnd(into: &writer)
        return writer.bytes
    }

    /// The confirmation before submission `id` of `name` is deleted: a post to `action` with the
    /// session's token, or back to `back`.
    public static func confirmDelete(
        frame: AdminFrame, name: FormName, id: String, action: String, back: String
    )
        -> [UInt8]
    {
        let texts = frame.texts
        var writer = HTMLWriter(capacity: 2048)
        writeStart(
            title: texts.deleteTitle.filling(["id": id]), texts: texts, frame: frame, form: name, into: &writer)
        writer.markup("<p>")
        writer.text(texts.deleteWarning)
        writer.markup("</p>\n<form class=\"fw-actions\" method=\"post\"")
        writer.attribute("action", action)
        writer.markup(">\n")
        writeHidden("_csrf", frame.csrf, into: &writer)
        writer.markup("<button type=\"submit\" class=\"fw-danger\">")
        writer.text(texts.delete)
        writer.markup("</button>\n<a")
        writer.attribute("href", back)
        writer.markup(">")
        writer.text(texts.cancel)
        writer.markup("</a>\n</form>\n")
        writeEnd(into: &writer)
        return writer.bytes
    }

    /// `text` cut to `limit` characters, with `…` when cut: a table's cell, a chart's label.
    public static func shortened(_ text: String, to limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    // MARK: - Parts every page shares

    /// Everything up to `<h1>title</h1>`: the document's head, then a bar naming the key signed in
    /// with and its sign-out button (for a signed-in `frame`), and links back to the forms and to
    /// `form`'s submissions on a page of one form.
    static func writeStart(
        title: String, texts: AdminTexts, frame: AdminFrame?, form: FormName? = nil, errorPrefix: Bool = false,
        into writer: inout HTMLWriter
    ) {
        writer.markup("<!doctype html>\n<html")
        writer.attribute("lang", texts.language)
        writer.markup(
            """
            >
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="robots" content="noindex">
            <title>
            """)
        if errorPrefix { writer.text(texts.language == "en" ? "Error: " : "错误：") }
        writer.text(title + " – Formwright")
        writer.markup(
            """
            </title>
            <link rel="stylesheet" href="/static/forms.css">
            <link rel="stylesheet" href="/static/admin.css">
            </head>
            <body class="fw-admin">

            """)
        if let frame {
            writer.markup("<header class=\"fw-admin-bar\">\n<a href=\"/admin\">Formwright</a>\n<p>")
            writer.text(texts.signedInAs.filling(["name": frame.keyName]))
            writer.markup("</p>\n<form method=\"post\" action=\"/admin/sign-out\">\n")
            writeHidden("_csrf", frame.csrf, into: &writer)
            writer.markup("<button type=\"submit\">")
            writer.text(texts.signOut)
            writer.markup("</button>\n</form>\n</header>\n")
        }
        writer.markup("<main id=\"fw-main\">\n")
        if frame != nil, title != texts.title {
            writer.markup("<nav class=\"fw-crumbs\"")
            writer.attribute("aria-label", texts.language == "en" ? "Breadcrumb" : "导航路径")
            writer.markup("><ol><li><a href=\"/admin\">")
            writer.text(texts.allForms)
            writer.markup("</a></li>")
            if let form {
                writer.markup("<li><a")
                writer.attribute("href", "/admin/forms/" + SafeURL.segment(form.id))
                writer.markup(">")
                writeName(form, texts: texts, into: &writer)
                writer.markup("</a></li>")
            }
            writer.markup("</ol></nav>\n")
        }
        writer.markup("<h1>")
        writer.text(title)
        writer.markup("</h1>\n")
    }

    static func writeEnd(into writer: inout HTMLWriter) {
        writer.markup("</main>\n</body>\n</html>\n")
    }

    /// A form's title, marked with its own language when the page's is another.
    static func writeName(_ name: FormName, texts: AdminTexts, into writer: inout HTMLWriter) {
        let other = !LanguageTag.same(name.locale, texts.language)
        writer.text(name.title, lang: other ? name.locale : nil)
    }

    static func writeCell(_ text: String, into writer: inout HTMLWriter) {
        writer.markup("<td>")
        writer.text(text)
        writer.markup("</td>")
    }

    static func writeHidden(_ name: StaticString, _ value: String, into writer: inout HTMLWriter) {
        writer.markup("<input type=\"hidden\"")
        writer.attribute("name", String(describing: name))
        writer.attribute("value", value)
        writer.markup(">\n")
    }
}
