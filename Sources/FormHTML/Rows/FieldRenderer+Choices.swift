import FormModel
import Foundation

extension FieldRenderer {
    /// A `<select>`. Its first option is empty: a size-1 select that is `required` must start with
    /// a "placeholder label option" of empty value (HTML spec §4.10.7, the select element's content
    /// model), and an optional one needs it to mean "no choice". A list box (inline picker) has it only
    /// when the row is optional or has no value yet.
    func writeSelect(_ field: FieldView, inline: Bool, into writer: inout HTMLWriter) {
        let plan = field.plan
        let chosen = Set(field.values)
        let empty = !inline || !field.required || !plan.options.contains { chosen.contains($0.value) }
        writer.markup("<select")
        writeIdentity(field, into: &writer)
        if inline {
            // A list box needs size > 1; more than eight rows scroll (UIPickerView shows about five).
            let count = plan.options.count + (empty ? 1 : 0)
            writer.attribute("size", String(Swift.max(2, Swift.min(count, 8))))
        }
        writeAutocomplete(plan, implied: nil, into: &writer)
        writeState(field, requirable: true, into: &writer)
        // A long list is searchable: the page script puts a filter before it, named by this text.
        if !inline, let label = plan.filterLabel { writer.attribute("data-fw-filter", escaped: label) }
        writer.markup(">\n")
        if empty {
            writer.markup("<option value=\"\"")
            writer.flag("selected", chosen.isEmpty || chosen == [""])
            writer.lang(plan.emptyOptionLang)
            writer.markup(">")
            writer.html(plan.emptyOption)
            writer.markup("</option>\n")
        }
        for option in plan.options {
            writer.markup("<option value=\"")
            writer.html(option.valueAttribute)
            writer.markup("\"")
            writer.flag("selected", chosen.contains(option.value))
            writer.markup(">")
            writer.html(option.title)
            writer.markup("</option>\n")
        }
        writer.markup("</select>\n")
    }

    /// More options than a reader can scan at a glance: the select gets a filter.
    static let longList = 15

    /// A boolean as a `<select>` posting `false` or `true` (which the server decodes as a check box's
    /// value). "No" comes first: a fresh item is false, as an unticked box is, and the browser script's
    /// fresh item selects the first option. No empty option: a boolean is always one or the other.
    func writeYesNo(_ field: FieldView, into writer: inout HTMLWriter) {
        // Blank (no choice yet) is no item: the server drops it, so a new item can be undone with no script.
        let chosen = field.values.first.flatMap { $0.allSatisfy(\.isWhitespace) ? nil : ValueTexts.isChecked([$0]) }
        let yes = chosen == true
        writer.markup("<select")
        writeIdentity(field, into: &writer)
        // `required` on a select asks for an empty first option, which this one has no use for.
        writeState(field, requirable: false, into: &writer)
        writer.markup(">\n<option value=\"\"")
        writer.flag("selected", chosen == nil)
        writer.lang(field.plan.emptyOptionLang)
        writer.markup(">")
        writer.html(field.plan.emptyOption)
        writer.markup("</option>\n<option value=\"false\"")
        writer.flag("selected", chosen == false)
        writer.lang(texts.lang("no"))
        writer.markup(">")
        writer.text(texts.no)
        writer.markup("</option>\n<option value=\"true\"")
        writer.flag("selected", yes)
        writer.lang(texts.lang("yes"))
        writer.markup(">")
        writer.text(texts.yes)
        writer.markup("</option>\n</select>\n")
    }

    /// Radio buttons (one choice) or check boxes (several) in a fieldset whose legend is the row's
    /// title (WCAG technique H71). Each input has its own label; help and errors describe every input.
    /// A segmented control's radios are drawn side by side (`fw-segmented`), other radios as a list.
    func writeGroup(_ field: FieldView, into writer: inout HTMLWriter) {
        let plan = field.plan
        let isRadio: Bool
        switch plan.control {
        case .radios:
            isRadio = true
            writer.markup("<fieldset class=\"fw-choices\"")
        case .segmented:
            isRadio = true
            writer.markup("<fieldset class=\"fw-choices fw-segmented\"")
        default:
            isRadio = false
            writer.markup("<fieldset class=\"fw-choices\"")
        }
        let chosen = Set(field.values)
        writer.attribute("id", field.id)
        writer.html(plan.data)
        writer.markup(">\n<legend>")
        writeTitle(field, into: &writer)
        writer.markup("</legend>\n")
        writeHelpAndErrors(field, into: &writer)
        for (offset, option) in plan.options.enumerated() {
            let id = "\(field.id)-\(offset)"
            writer.markup(
                isRadio
                    ? "<div class=\"fw-choice\"><input type=\"radio\""
                    : "<div class=\"fw-choice\"><input type=\"checkbox\"")
            writer.attribute("id", id)
            if let name = field.name { writer.attribute("name", name) }
            writer.markup(" value=\"")
            writer.html(option.valueAttribute)
            writer.markup("\"")
            writer.flag("checked", chosen.contains(option.value))
            // `required` on a check box means that box must be ticked, not "pick at least one".
            writeState(field, requirable: isRadio, into: &writer)
            writer.markup("><label")
            writer.attribute("for", id)
            writer.markup(">")
            writer.html(option.title)
            writer.markup("</label></div>\n")
        }
        writer.markup("</fieldset>\n")
    }
}
