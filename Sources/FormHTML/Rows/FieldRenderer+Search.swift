import FormModel
import Foundation

extension FieldRenderer {
    /// A selector whose options come from a source (`optionsFrom`), drawn so that it works without a
    /// script: a search field and a Search button that posts the page back with the matches, then the
    /// matches (and the option chosen) as a select, which posts the row's value. The search field posts
    /// under its own name (`FieldNames.query`), never the row's. The page script (`forms-search.js`)
    /// makes the field an ARIA combobox that searches as the reader types, and hides the button and the
    /// select, whose value it keeps.
    func writeSearch(_ field: FieldView, into writer: inout HTMLWriter) {
        let plan = field.plan
        let search = field.search ?? PageState.Search()
        let tag = plan.row.tag ?? ""
        writer.markup("<div class=\"fw-search\"")
        if let url = plan.searchURL { writer.attribute("data-fw-search", url) }
        // What the combobox says in a status region, in the page's language.
        writer.attribute("data-fw-none", texts.noMatches)
        writer.attribute("data-fw-unavailable", texts.searchUnavailable)
        writer.markup(">\n<input type=\"search\"")
        writer.attribute("id", field.id)
        writer.attribute("name", FieldNames.query(tag: tag))
        writer.attribute("value", search.query.isEmpty ? search.chosen?.title ?? "" : search.query)
        writer.markup(" autocomplete=\"off\" data-fw-query")
        if let placeholder = plan.placeholder { writer.attribute("placeholder", escaped: placeholder) }
        writer.flag("autofocus", field.autofocus)
        writeState(field, requirable: false, into: &writer)
        writer.markup(">\n<button type=\"submit\" class=\"fw-search-button\" formnovalidate")
        writer.attribute("name", FieldNames.search)
        writer.attribute("value", tag)
        writer.flag("disabled", field.disabled)
        writer.markup(">")
        writer.text(texts.search)
        writer.markup("</button>\n</div>\n")
        if search.unavailable {
            writer.markup("<p class=\"fw-search-note\" role=\"status\">")
            writer.text(texts.searchUnavailable)
            writer.markup("</p>\n")
        } else if let matches = search.matches, matches.isEmpty {
            writer.markup("<p class=\"fw-search-note\" role=\"status\">")
            writer.text(texts.noMatches.replacingOccurrences(of: "{query}", with: search.query))
            writer.markup("</p>\n")
        }
        writeMatches(field, search: search, into: &writer)
    }

    /// The select of the chosen option and the matches, labelled "Matches for …". Before anything was
    /// searched or chosen it is empty and `hidden`, and posts no value: it is there for the page script,
    /// which reads the row's value from it and puts a choice into it.
    private func writeMatches(_ field: FieldView, search: PageState.Search, into writer: inout HTMLWriter) {
        var choices = search.chosen.map { [$0] } ?? []
        for option in search.matches ?? [] where !choices.contains(where: { $0.value == option.value }) {
            choices.append(option)
        }
        let id = field.id + "-choice"
        guard !choices.isEmpty else {
            writer.markup("<select")
            writer.attribute("id", id)
            if let posted = field.name { writer.attribute("name", posted) }
            writer.flag("disabled", field.disabled)
            writer.markup(" hidden>\n<option value=\"\" selected")
            writer.lang(field.plan.emptyOptionLang)
            writer.markup(">")
            writer.html(field.plan.emptyOption)
            writer.markup("</option>\n</select>\n")
            return
        }
        writer.markup("<label class=\"fw-search-label\"")
        writer.attribute("for", id)
        writer.markup(">")
        if let label = field.plan.matchesLabel { writer.html(label) }
        writer.markup("</label>\n<select")
        writer.attribute("id", id)
        if let posted = field.name { writer.attribute("name", posted) }
        writeState(field, requirable: true, into: &writer)
        writer.markup(">\n")
        if search.chosen == nil {
            writer.markup("<option value=\"\"")
            writer.lang(field.plan.emptyOptionLang)
            writer.markup(">")
            writer.html(field.plan.emptyOption)
            writer.markup("</option>\n")
        }
        for option in choices {
            writer.markup("<option")
            writer.attribute("value", option.value)
            writer.flag("selected", option.value == search.chosen?.value)
            writer.markup(">")
            writer.text(option.title)
            writer.markup("</option>\n")
        }
        writer.markup("</select>\n")
    }
}
