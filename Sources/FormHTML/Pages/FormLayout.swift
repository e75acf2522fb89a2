import FormModel
import Foundation

/// The constant parts of a form's page, escaped and laid out once: row and section plans, the page
/// start and end, the `<form>` tag and the rules script. `write(state:into:)` adds one request's state.
struct FormLayout: Sendable {
    let form: CompiledForm
    let texts: PageTexts
    let rows: [RowPlan]
    let sections: [SectionPlan]
    let renderer: SectionRenderer
    /// `<!doctype html>` to `</h1>`, without and with the error prefix in `<title>`.
    let start: [UInt8]
    let startWithErrors: [UInt8]
    /// `<form …>`.
    let formOpen: [UInt8]
    /// The submit button, `</form>`, the rules script and the end of the page.
    let end: [UInt8]

    init(form: CompiledForm, texts: PageTexts, uploadLimits: [Int: UploadLimit] = [:]) {
        self.form = form
        // The page is in the form's language: fixed texts in another are marked with theirs.
        var texts = texts
        texts.pageLanguage = form.form.locale
        self.texts = texts
        var ids = FieldIDs()
        let zone = form.form.timeZone
        let sections = form.sections.map { SectionPlan($0, ids: &ids, texts: texts, timeZone: zone) }
        let newPasswords = NewPasswords.rows(of: form)
        let rows = form.rows.map { compiled in
            var plan = RowPlan(
                row: compiled.row, id: ids.make(compiled.row.tag ?? "row_\(compiled.index)"),
                name: compiled.row.tag.map(FieldNames.field(tag:)), required: compiled.required, texts: texts,
                timeZone: zone,
                control: newPasswords.contains(compiled.index) ? NewPasswords.control(for: compiled.row.type) : nil)
            plan.uploadLimit = uploadLimits[compiled.index].map { (String($0.bytes), HTML(attributeValue: $0.message)) }
            if compiled.row.optionsFrom != nil, let tag = compiled.row.tag {
                plan.searchURL = "/forms/\(Self.pathSegment(form.form.id))/options/\(Self.pathSegment(tag))"
            }
            return plan
        }
        self.rows = rows
        self.sections = sections
        renderer = SectionRenderer(
            fields: FieldRenderer(
                texts: texts, asterisks: form.form.addAsteriskToRequiredRowsTitle,
                helpToggle: form.form.layout.help == .toggle),
            rows: rows, formDisabled: form.form.disabled, lines: Self.lines(of: form))
        let title = HTML(text: form.form.title ?? form.form.id)
        start = Self.start(form.form, title: title, errorPrefix: nil)
        startWithErrors = Self.start(form.form, title: title, errorPrefix: texts.errorPrefix)
        formOpen = Self.formOpen(form.form)
        end = Self.end(form, texts: texts, rules: RulesJSON.make(form: form, rows: rows, sections: sections))
    }

    /// `text` percent-encoded for one segment of a path: a tag may hold `/`, `?` or spaces.
    static func pathSegment(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// The rows that begin and end each of the layout's lines, by index in `CompiledForm.rows` (the
    /// checks made sure each line's rows follow one another in one section).
    static func lines(of form: CompiledForm) -> (starts: Set<Int>, ends: Set<Int>) {
        var lines: (starts: Set<Int>, ends: Set<Int>) = ([], [])
        for line in form.form.layout.lines {
            let indexes = line.compactMap { form.rowIndex[$0] }
            guard let first = indexes.min(), let last = indexes.max(), first != last else { continue }
            lines.starts.insert(first)
            lines.ends.insert(last)
        }
        return lines
    }

    /// Writes the page for `state`; returns where the token's value starts, when there is one.
    func write(state: PageState, into writer: inout HTMLWriter) -> Int? {
        let errors = PageErrors(state.errors)
        writer.rendered(state.errors.isEmpty ? start : startWithErrors)
        if !state.errors.isEmpty {
            // One autofocus per page: a focus target the state names wins over the summary.
            writeSummary(state.errors, state: state, focused: state.focus == nil, into: &writer)
        }
        if let reference = state.editedReference {
            writer.markup("<p class=\"fw-editing\"")
            writer.lang(texts.lang("editing"))
            writer.markup(">")
            writer.text(texts.editing.replacing("{reference}", with: reference))
            writer.markup("</p>\n")
        }
        if let query = state.actionQuery {
            writer.rendered(Self.formOpen(form.form, query: query))
        } else {
            writer.rendered(formOpen)
        }
        var tokenOffset: Int?
        if let token = state.csrfToken {
            writer.markup("<input type=\"hidden\"")
            writer.attribute("name", FieldNames.csrf)
            writer.markup(" value=\"")
            tokenOffset = writer.count
            writer.attributeValue(token)
            writer.markup("\">\n")
        }
        if let version = state.recordVersion {
            writer.markup("<input type=\"hidden\"")
            writer.attribute("name", FieldNames.version)
            writer.attribute("value", version)
            writer.markup(">\n")
        }
        if sections.contains(where: renderer.drawsAddButton) {
            // Enter in a text field clicks the form's first submit button (HTML spec §4.10.21.2,
            // "Implicit submission"), hidden or not. An "Add another" button would be first, so a hidden
            // copy of the real submit button comes before every other.
            writer.markup("<button type=\"submit\" hidden tabindex=\"-1\"")
            writer.submitTitle(form.form, texts: texts)
            writer.markup("\n")
        }
        for section in sections { renderer.write(section, state: state, errors: errors, into: &writer) }
        writer.rendered(end)
        return tokenOffset
    }
}
