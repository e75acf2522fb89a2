import FormModel
import FormPredicate

/// The compiled conditions as JSON for `Public/forms.js`, written once per form and embedded in
/// `<script type="application/json" id="fw-rules">`:
///
/// ```json
/// {"v":1,"hiddenValues":"clear",
///  "rows":[{"id":"fw-alert","name":"alert","kind":"option"},
///          {"id":"fw-second_alert","name":"second-alert","kind":"option",
///           "hidden":{"ast":{...Predicate.jsonAST()...},"reads":[["rowValue",5]]}}],
///  "sections":[{"id":"fw-section_0"}],
///  "order":[["sectionHidden",0],["rowHidden",5],...]}
/// ```
///
/// Only predicate conditions appear: a constant one is already in the markup and never changes.
/// `reads[i]` is the fact that answers the AST's variable `i`; `order` is the compiler's dependency
/// order, so the script evaluates facts in the same order as the server.
enum RulesJSON {
    static func make(form: CompiledForm, rows: [RowPlan], sections: [SectionPlan]) -> String {
        var json = "{\"v\":1,\"hiddenValues\":" + JSONText.string(form.form.hiddenValues.rawValue) + ",\"rows\":["
        for (offset, row) in form.rows.enumerated() {
            if offset > 0 { json += "," }
            // A multivalued section's rows are drawn as its items (`fw-tags-0`…), not under their own ids.
            let drawn = sections[row.sectionIndex].multivalued == nil
            json += drawn ? "{\"id\":" + JSONText.string(rows[offset].id) + "," : "{"
            if let tag = row.row.tag { json += "\"name\":" + JSONText.string(tag) + "," }
            json += "\"kind\":" + JSONText.string(row.row.type.valueKind.rawValue)
            json += condition("hidden", row.hidden) + condition("disabled", row.disabled)
            json += condition("required", row.required) + "}"
        }
        json += "],\"sections\":["
        for (offset, section) in form.sections.enumerated() {
            if offset > 0 { json += "," }
            json += "{\"id\":" + JSONText.string(sections[offset].id)
            if let tag = section.section.multivaluedTag { json += ",\"multivaluedTag\":" + JSONText.string(tag) }
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
