/// The operator's view's charts: inline SVG drawn on the server, no script and no library. Each is a
/// `role="img"` named by its caption and described by a sentence that says what it shows, with the
/// numbers behind it in a table, so a reader who cannot see it loses nothing. Colours come from the
/// stylesheet's palette, light or dark.
enum AdminCharts {
    /// Submissions per day, a bar a day, oldest first; `id` names its parts. With `table`, the days'
    /// counts follow in a data table; without, the chart is a small one beside the numbers it sums.
    static func writeDays(
        _ days: [DayCount], id: String, caption: String, texts: AdminTexts, table: Bool, into writer: inout HTMLWriter
    ) {
        let width = days.count * 10
        let highest = max(days.map(\.count).max() ?? 0, 1)
        writer.markup("<figure class=\"fw-chart\"")
        if !table { writer.markup(" data-fw-small") }
        writer.markup(">\n<figcaption")
        writer.attribute("id", id + "-caption")
        writer.markup(">")
        writer.text(caption)
        writer.markup("</figcaption>\n<svg class=\"fw-days\" role=\"img\"")
        writer.attribute("aria-labelledby", "\(id)-caption \(id)-summary")
        writer.attribute("viewBox", "0 0 \(width) 100")
        writer.markup(" preserveAspectRatio=\"none\">\n<line class=\"fw-axis\" x1=\"0\" y1=\"99.5\"")
        writer.attribute("x2", String(width))
        writer.markup(" y2=\"99.5\"/>\n")
        for (index, day) in days.enumerated() where day.count > 0 {
            let height = max(Double(day.count) / Double(highest) * 96, 1)
            writer.markup("<rect class=\"fw-bar\"")
            writer.attribute("x", String(index * 10 + 1))
            writer.attribute("y", number(99 - height))
            writer.markup(" width=\"8\"")
            writer.attribute("height", number(height))
            writer.markup("><title>")
            writer.text("\(day.day): \(day.count)")
            writer.markup("</title></rect>\n")
        }
        writer.markup("</svg>\n<p class=\"fw-chart-axis\" aria-hidden=\"true\"><span>")
        writer.text(days.first?.day ?? "")
        writer.markup("</span><span>")
        writer.text(days.last?.day ?? "")
        writer.markup("</span></p>\n<p class=\"fw-chart-summary\"")
        writer.attribute("id", id + "-summary")
        writer.markup(">")
        writer.text(summary(days, texts: texts))
        writer.markup("</p>\n")
        if table {
            writer.markup("<details class=\"fw-chart-data\"><summary>")
            writer.text(texts.dataTable)
            writer.markup("</summary>\n<table>\n<caption>")
            writer.text(caption)
            writer.markup("</caption>\n<thead><tr><th scope=\"col\">")
            writer.text(texts.day)
            writer.markup("</th><th scope=\"col\">")
            writer.text(texts.submissions)
            writer.markup("</th></tr></thead>\n<tbody>\n")
            for day in days.reversed() {
                writer.markup("<tr><td>")
                writer.text(day.day)
                writer.markup("</td><td>")
                writer.text(String(day.count))
                writer.markup("</td></tr>\n")
            }
            writer.markup("</tbody>\n</table>\n</details>\n")
        }
        writer.markup("</figure>\n")
    }

    /// One sentence for `days`: how many in all, and the busiest day.
    static func summary(_ days: [DayCount], texts: AdminTexts) -> String {
        let total = days.reduce(0) { $0 + $1.count }
        guard total > 0, let busiest = days.max(by: { $0.count < $1.count }) else { return texts.chartEmpty }
        return texts.chartSummary.filling([
            "total": String(total), "count": String(busiest.count), "day": busiest.day,
        ])
    }

    /// One row's answers as horizontal bars, each labelled above it with its count, then its table.
    static func writeAnswers(_ chart: AnswerChart, id: String, texts: AdminTexts, into writer: inout HTMLWriter) {
        let highest = max(chart.bars.map(\.count).max() ?? 0, 1)
        let rowHeight = 40
        writer.markup("<figure class=\"fw-chart\">\n<figcaption")
        writer.attribute("id", id + "-caption")
        writer.markup(">")
        writer.text(chart.title)
        writer.markup("</figcaption>\n<svg class=\"fw-answers\" role=\"img\"")
        writer.attribute("aria-labelledby", "\(id)-caption \(id)-summary")
        writer.attribute("viewBox", "0 0 400 \(max(chart.bars.count, 1) * rowHeight)")
        writer.markup(">\n")
        for (index, bar) in chart.bars.enumerated() {
            let top = index * rowHeight
            writer.markup("<text class=\"fw-label\" x=\"0\"")
            writer.attribute("y", String(top + 15))
            writer.markup(">")
            writer.text(AdminPages.shortened(bar.label, to: 40) + " (\(bar.count))")
            writer.markup("</text>\n")
            guard bar.count > 0 else { continue }
            writer.markup("<rect class=\"fw-bar\" x=\"0\"")
            writer.attribute("y", String(top + 20))
            writer.attribute("width", number(max(Double(bar.count) / Double(highest) * 400, 1)))
            writer.markup(" height=\"14\"/>\n")
        }
        writer.markup("</svg>\n<p class=\"fw-chart-summary\"")
        writer.attribute("id", id + "-summary")
        writer.markup(">")
        writer.text(
            chart.bars.map { "\($0.label): \($0.count)" }.joined(separator: texts.language == "en" ? "; " : "；"))
        writer.markup("</p>\n<details class=\"fw-chart-data\"><summary>")
        writer.text(texts.dataTable)
        writer.markup("</summary>\n<table>\n<caption>")
        writer.text(chart.title)
        writer.markup("</caption>\n<thead><tr><th scope=\"col\">")
        writer.text(texts.answer)
        writer.markup("</th><th scope=\"col\">")
        writer.text(texts.count)
        writer.markup("</th></tr></thead>\n<tbody>\n")
        for bar in chart.bars {
            writer.markup("<tr><td>")
            writer.text(bar.label)
            writer.markup("</td><td>")
            writer.text(String(bar.count))
            writer.markup("</td></tr>\n")
        }
        writer.markup("</tbody>\n</table>\n</details>\n</figure>\n")
    }

    /// `value` with one decimal at most, as SVG reads it.
    private static func number(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : String(tenths / 10)
    }

}
