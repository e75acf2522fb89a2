import FormModel

extension FormLayout {
    /// The error summary: `role=alert` so it is announced, `tabindex=-1` so a script (or `autofocus`
    /// when `focused`, with no script) can move focus to it, and one link per error to the field to fix.
    ///
    /// The browser script keeps it true to the page as it changes: a link follows its item when items
    /// move, an item's errors leave with it, an error of a hidden or disabled field is hidden while the
    /// field is, and the heading counts what is left (its two texts wait in data attributes). An item's
    /// error marks the item's name (`HTMLWriter.errorMessage`), which the script renumbers with the item.
    func writeSummary(_ errors: [PageError], state: PageState, focused: Bool, into writer: inout HTMLWriter) {
        writer.markup("<div class=\"fw-summary\" id=\"fw-summary\" role=\"alert\" tabindex=\"-1\"")
        writer.flag("autofocus", focused)
        writer.markup(" aria-labelledby=\"fw-summary-title\">\n<h2 id=\"fw-summary-title\"")
        writer.lang(texts.lang(errors.count == 1 ? "oneProblem" : "severalProblems"))
        writer.attribute("data-fw-one", texts.oneProblem)
        if let lang = texts.lang("oneProblem") { writer.attribute("data-fw-one-lang", lang) }
        writer.attribute("data-fw-several", texts.severalProblems)
        if let lang = texts.lang("severalProblems") { writer.attribute("data-fw-several-lang", lang) }
        writer.markup(">")
        writer.text(texts.problems(errors.count))
        writer.markup("</h2>\n<ul>\n")
        for error in errors {
            let lang = error.language.flatMap { texts.lang(language: $0) }
            let itemName = itemName(of: error)
            let nameLang = lang == nil ? nil : texts.pageLanguage
            writer.markup("<li")
            writer.lang(lang)
            writer.markup(">")
            if let target = target(of: error, state: state) {
                writer.markup("<a")
                writer.attribute("href", "#" + target)
                // A section's own error leads to whichever item is first, not to one item.
                writer.flag("data-fw-first-item", error.row == nil && error.position == nil)
                writer.markup(">")
                writer.errorMessage(error.message, naming: itemName, nameLang: nameLang)
                writer.markup("</a>")
            } else {
                writer.errorMessage(error.message, naming: itemName, nameLang: nameLang)
            }
            writer.markup("</li>\n")
        }
        writer.markup("</ul>\n</div>\n")
    }

    /// The name of the item an error is about ("Tag 2"), which its message names; nil for a row's or a
    /// section's own error.
    func itemName(of error: PageError) -> String? {
        guard let section = error.section, let position = error.position, sections.indices.contains(section) else {
            return nil
        }
        return sections[section].multivalued?.itemName(at: position)
    }

    /// The id of the control an error is about, when it is on the page.
    func target(of error: PageError, state: PageState) -> String? {
        if let row = error.row {
            guard rows.indices.contains(row) else { return nil }
            let plan = rows[row]
            guard plan.row.type.takesInput else { return nil }
            return plan.focusID(of: plan.id)
        }
        guard let section = error.section, sections.indices.contains(section),
            let multivalued = sections[section].multivalued
        else { return nil }
        let count = state.items[section]?.count ?? multivalued.defaultItems.count
        // A section's own error (too many items) leads to its first item, where fixing starts.
        let position = error.position ?? 0
        return (0..<count).contains(position) ? multivalued.item.focusID(of: "\(multivalued.item.id)-\(position)") : nil
    }

    static func start(_ form: Form, title: HTML, errorPrefix: String?) -> [UInt8] {
        var writer = HTMLWriter()
        PageShell.writeStart(
            language: form.locale, title: title, errorPrefix: errorPrefix, scripts: scripts(of: form), into: &writer)
        return writer.bytes
    }

    /// The scripts of the form's custom row types, each once, in the order the rows first use them, and
    /// the combobox's (`forms-search.js`) when a row searches an option source.
    static func scripts(of form: Form) -> [String] {
        var seen = Set<String>()
        let types = form.sections.flatMap { section in
            section.rows.map(\.type) + [section.rowTemplate?.type].compactMap { $0 }
        }
        let search = form.allRows.contains { $0.value.optionsFrom != nil } ? ["forms-search.js"] : []
        return (types.compactMap(\.custom?.script) + search).filter { seen.insert($0).inserted }
    }

    /// `novalidate`: the server validates every post anyway (docs/submissions.md), and its messages are the
    /// form's own, localised, listed in a summary and linked to fields; the browser's bubbles would
    /// show a different text in a different language, one field at a time. `required`, `min`, `max`
    /// and `maxlength` stay on the controls for assistive technology and input hints.
    static func formOpen(_ form: Form, query: String? = nil) -> [UInt8] {
        var writer = HTMLWriter()
        writer.markup("<form id=\"fw-form\" method=\"post\"")
        writer.attribute("action", SafeURL.formPath(form.id) + (query.map { "?" + $0 } ?? ""))
        writer.markup(" novalidate")
        if form.allRows.contains(where: { $0.value.type.valueKind == .file }) {
            writer.markup(" enctype=\"multipart/form-data\"")
        }
        writer.markup(">\n")
        return writer.bytes
    }

    static func end(_ form: CompiledForm, texts: PageTexts, rules: String) -> [UInt8] {
        var writer = HTMLWriter()
        // A read-only form has nothing to submit.
        if !form.form.disabled {
            writer.markup("<div class=\"fw-actions\"><button type=\"submit\"")
            writer.submitTitle(form.form, texts: texts)
            writer.markup("</div>\n")
        }
        writer.markup("</form>\n")
        if !form.form.disabled,
            form.sections.contains(where: { $0.item != nil && !$0.section.multivaluedOptions.isEmpty })
        {
            writeAnnouncer(texts: texts, into: &writer)
        }
        writer.markup("<script type=\"application/json\" id=\"fw-rules\">")
        writer.scriptJSON(rules)
        writer.markup("</script>\n")
        PageShell.writeEnd(into: &writer)
        return writer.bytes
    }
}

extension FormLayout {
    /// A polite live region (`role=status`, WAI-ARIA 1.2 §5.3.3.6) that the browser script fills when
    /// it adds, removes or moves an item: focus alone does not tell a screen reader what happened.
    /// It is in the page from the start, as live regions must be to be heard. Its texts wait in data
    /// attributes, `{item}` standing for the item's name, each with its `lang` when not the page's.
    static func writeAnnouncer(texts: PageTexts, into writer: inout HTMLWriter) {
        writer.markup("<div id=\"fw-status\" class=\"fw-visually-hidden\" role=\"status\"")
        writer.attribute("data-fw-added", texts.itemAdded)
        if let lang = texts.lang("itemAdded") { writer.attribute("data-fw-added-lang", lang) }
        writer.attribute("data-fw-removed", texts.itemRemoved)
        if let lang = texts.lang("itemRemoved") { writer.attribute("data-fw-removed-lang", lang) }
        writer.attribute("data-fw-up", texts.itemMovedUp)
        if let lang = texts.lang("itemMovedUp") { writer.attribute("data-fw-up-lang", lang) }
        writer.attribute("data-fw-down", texts.itemMovedDown)
        if let lang = texts.lang("itemMovedDown") { writer.attribute("data-fw-down-lang", lang) }
        writer.markup("></div>\n")
    }
}

extension HTMLWriter {
    /// Ends a submit button's start tag and writes its text and end tag: the form's `submitTitle`
    /// (its own language), else the fixed text, marked when it is in another language than the page.
    mutating func submitTitle(_ form: Form, texts: PageTexts) {
        if form.submitTitle == nil { lang(texts.lang("submit")) }
        markup(">")
        text(form.submitTitle ?? texts.submit)
        markup("</button>")
    }
}
