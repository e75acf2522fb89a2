import FormModel
import FormPredicate

/// The compiled conditions as JSON for `Public/forms.js`, written once per form and embedded in
/// `<script type="application/json" id="fw-rules">`:
///
/// ```json
/// {"v":1,"hiddenValues":"clear","timeZone":"Europe/Paris",
///  "rows":[{"id":"fw-alert","name":"alert","kind":"option","section":3},
///          {"id":"fw-second_alert","name":"second-alert","kind":"option","section":3,
///           "hidden":{"ast":{...Predicate.jsonAST()...},"reads":[["rowValue",5]]}}],
///  "sections":[{"id":"fw-section_0"},
///              {"id":"fw-tags","multivaluedTag":"tags","maxItems":10,"itemKind":"text"}],
///  "order":[["sectionHidden",0],["rowHidden",5],...]}
/// ```
///
/// Only predicate conditions appear: a constant one is already in the markup and never changes. The one
/// exception is a row's or section's own constant `"hidden":true`: a row wrapper's `hidden` attribute
/// also says whether its section is hidden, and a section's whether all its rows are, and the script
/// must tell them apart when they reappear.
/// `"disabled":true` at the top marks a read-only form (every row disabled, whatever its condition);
/// `"timeZone"`, given when a row holds date-times, is the IANA zone they are read in.
/// `"keepsBlank":true` on a row (`"itemKeepsBlank"` on a section) marks a password: its whitespace-only
/// text is a value, where any other row's is none.
/// `reads[i]` is the fact that answers the AST's variable `i`; `order` is the compiler's dependency
/// order, so the script evaluates facts in the same order as the server.
enum RulesJSON {
    static func make(form: CompiledForm, rows: [RowPlan], sections: [SectionPlan]) -> String {
        var json = "{\"v\":1,\"hiddenValues\":" + JSONString.quoted(form.form.hiddenValues.rawValue)
        // The script reads a date-time as the server does, an instant in the form's zone: it needs the zone.
        let readsDateTimes =
            form.rows.contains { $0.row.type.valueKind == .dateTime }
            || form.sections.contains { $0.item?.row.type.valueKind == .dateTime }
        if readsDateTimes { json += ",\"timeZone\":" + JSONString.quoted(form.form.timeZone) }
        if form.form.disabled { json += ",\"disabled\":true" }
        json += ",\"rows\":["
        for (offset, row) in form.rows.enumerated() {
            if offset > 0 { json += "," }
            // A multivalued section's rows are drawn as its items (`fw-tags-0`…), not under their own ids.
            let drawn = sections[row.sectionIndex].multivalued == nil
            json += drawn ? "{\"id\":" + JSONString.quoted(rows[offset].id) + "," : "{"
            if let tag = row.row.tag { json += "\"name\":" + JSONString.quoted(tag) + "," }
            json += "\"kind\":" + JSONString.quoted(row.row.type.valueKind.rawValue)
            // A password's spaces are a value; every other row's blank text is none (docs/submissions.md, rule 6).
            if row.row.type.isSecret { json += ",\"keepsBlank\":true" }
            json += ",\"section\":\(row.sectionIndex)"
            if case .constant(true) = row.hidden { json += ",\"hidden\":true" }
            json += condition("hidden", row.hidden) + condition("disabled", row.disabled)
            json += condition("required", row.required) + "}"
        }
        json += "],\"sections\":["
        for (offset, section) in form.sections.enumerated() {
            if offset > 0 { json += "," }
            json += "{\"id\":" + JSONString.quoted(sections[offset].id)
            if let tag = section.section.multivaluedTag { json += ",\"multivaluedTag\":" + JSONString.quoted(tag) }
            if let multivalued = sections[offset].multivalued {
                json += ",\"maxItems\":\(multivalued.cap),\"itemKind\":"
                json += JSONString.quoted(multivalued.item.row.type.valueKind.rawValue)
                if multivalued.item.row.type.isSecret { json += ",\"itemKeepsBlank\":true" }
            }
            // As for a row: the fieldset's `hidden` also says whether all its rows are hidden (SectionRenderer),
            // so the script reads the section's own constant here, not from the markup.
            if case .constant(true) = section.hidden { json += ",\"hidden\":true" }
            json += condition("hidden", section.hidden) + "}"
        }
        json += "],\"order\":[" + form.order.map(fact).joined(separator: ",") + "]}"
        return json
    }

    private static func condition(_ key: String, _ condition: CompiledCondition) -> String {
        guard case .predicate(let predicate, let bindings) = condition else { return "" }
        return ",\"\(key)\":{\"ast\":" + predicate.jsonAST() + ",\"reads\":["
            + bindings.map(fact).joined(separator: ",") + "]}"
    }

    private static func fact(_ fact: FormFact) -> String {
        switch fact {
        case .rowHidden(let index): "[\"rowHidden\",\(index)]"
        case .rowDisabled(let index): "[\"rowDisabled\",\(index)]"
        case .rowValue(let index): "[\"rowValue\",\(index)]"
        case .sectionHidden(let index): "[\"sectionHidden\",\(index)]"
        case .sectionValue(let index): "[\"sectionValue\",\(index)]"
        }
    }
}
