/// The start and end every page shares: doctype, language, charset, viewport, title, the stylesheet
/// and the deferred scripts, then `<main>` with the page's heading.
enum PageShell {
    /// Everything up to and including `<h1>…</h1>`. `errorPrefix` goes before the title so a screen
    /// reader hears at once that the page came back with problems (GOV.UK's pattern). It waits in
    /// `data-fw-error-prefix` too: the browser script drops it from the title while no error is shown.
    /// `scripts` are custom row types' scripts, paths under `/static/`, loaded after the page's own.
    static func writeStart(
        language: String, title: HTML, errorPrefix: String?, scripts: [String] = [], into writer: inout HTMLWriter
    ) {
        writer.markup("<!doctype html>\n<html")
        writer.attribute("lang", language)
        writer.markup(
            """
            >
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title
            """)
        if let errorPrefix { writer.attribute("data-fw-error-prefix", errorPrefix) }
        writer.markup(">")
        if let errorPrefix { writer.text(errorPrefix) }
        writer.html(title)
        writer.markup(
            """
            </title>
            <link rel="stylesheet" href="/static/forms.css">
            <script src="/static/forms-rules.js" defer></script>
            <script src="/static/forms.js" defer></script>

            """)
        for script in scripts {
            writer.markup("<script")
            writer.attribute("src", "/static/" + script)
            writer.markup(" defer></script>\n")
        }
        writer.markup(
            """
            </head>
            <body>
            <main id="fw-main">
            <h1>
            """)
        writer.html(title)
        writer.markup("</h1>\n")
    }

    /// Closes `<main>`, `<body>` and `<html>`.
    static func writeEnd(into writer: inout HTMLWriter) {
        writer.markup("</main>\n</body>\n</html>\n")
    }
}
