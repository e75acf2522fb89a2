import FormModel
import Foundation

/// Writes one field: label, help, errors and control, in that order (a check box puts its label
/// after the box, as platforms do). Each row type's control is chosen by `Control`.
struct FieldRenderer: Sendable {
    let texts: PageTexts
    /// The form's `addAsteriskToRequiredRowsTitle`.
    let asterisks: Bool
    /// Whether help waits behind a "?" toggle (`Layout.Help.toggle`) rather than being shown.
    var helpToggle = false

    func write(_ field: FieldView, into writer: inout HTMLWriter) {
        switch field.plan.control {
        case .radios, .segmented, .checkboxes:
            writeGroup(field, into: &writer)
        case .checkbox(let isSwitch):
            writer.markup("<input type=\"checkbox\"")
            writeIdentity(field, into: &writer)
            if isSwitch { writer.markup(" role=\"switch\"") }
            writer.flag("checked", ValueTexts.isChecked(field.values))
            writeState(field, requirable: true, into: &writer)
            writer.markup(">\n")
            writeLabel(field, into: &writer)
            writeHelpAndErrors(field, into: &writer)
        case .paragraph:
            writer.markup("<p class=\"fw-text\"")
            writer.attribute("id", field.id)
            writer.markup(">")
            writer.html(field.plan.label)
            writer.markup("</p>\n")
            writeHelpAndErrors(field, into: &writer)
        case .action:
            writeAction(field, into: &writer)
            writeHelpAndErrors(field, into: &writer)
        default:
            writeLabel(field, into: &writer)
            writeHelpAndErrors(field, into: &writer)
            writeControl(field, into: &writer)
        }
    }

    func writeLabel(_ field: FieldView, into writer: inout HTMLWriter) {
        writer.markup("<label")
        writer.attribute("for", field.id)
        writer.markup(">")
        writeTitle(field, into: &writer)
        writer.markup("</label>\n")
    }

    /// The title, an item's position, and the required marker. The marker is hidden from screen
    /// readers, which hear the control's `required` state instead; it is present but `hidden` while a
    /// `required` predicate is false so the browser script only toggles it. A `hidden` marker needs no
    /// `aria-hidden` (HTML's `hidden` already takes it out of the accessibility tree).
    ///
    /// A group of check boxes has no control that can carry `required` (on a check box it means "tick
    /// this one"), and `aria-required` is not allowed on role group (WAI-ARIA 1.2), so its legend says
    /// "required" in words, for screen readers only, toggled like the marker.
    func writeTitle(_ field: FieldView, into writer: inout HTMLWriter) {
        writer.html(field.plan.label)
        if let suffix = field.labelSuffix { writer.text(suffix) }
        guard field.plan.mayBeRequired else { return }
        if asterisks {
            writer.markup("<span class=\"fw-required\"")
            writer.attribute("title", texts.requiredMarker)
            writer.lang(texts.lang("requiredMarker"))
            if field.required { writer.markup(" aria-hidden=\"true\"") } else { writer.markup(" hidden") }
            writer.markup(">*</span>")
        }
        if case .checkboxes = field.plan.control {
            writer.markup("<span class=\"fw-visually-hidden fw-required-text\"")
            writer.lang(texts.lang("requiredMarker"))
            writer.flag("hidden", !field.required)
            writer.markup("> ")
            writer.text(texts.requiredMarker)
            writer.markup("</span>")
        }
    }

    /// The help (shown, or behind a "?" toggle), then the errors. The toggle is a disclosure widget,
    /// `<details>`: it opens without a script, a screen reader announces it as collapsed or expanded, and
    /// its name says whose help it is. A closed `<details>` hides its text from the control's description
    /// too (Chromium computes none from it), so the control is described by a `hidden` copy beside it,
    /// which a description reads whether the toggle is open or not.
    func writeHelpAndErrors(_ field: FieldView, into writer: inout HTMLWriter) {
        if let help = field.plan.help {
            if helpToggle {
                writer.markup("<details class=\"fw-help-toggle\"><summary><span aria-hidden=\"true\">?</span>")
                writer.markup("<span class=\"fw-visually-hidden\"")
                writer.lang(texts.lang("helpFor"))
                writer.markup(">")
                if let name = field.plan.helpToggleName { writer.html(name) }
                writer.markup("</span></summary>\n<p class=\"fw-help\">")
                writer.html(help)
                writer.markup("</p>\n</details>\n<span hidden")
                writer.attribute("id", field.helpID)
                writer.markup(">")
                writer.html(help)
                writer.markup("</span>\n")
            } else {
                writer.markup("<p class=\"fw-help\"")
                writer.attribute("id", field.helpID)
                writer.markup(">")
                writer.html(help)
                writer.markup("</p>\n")
            }
        }
        writeErrors(field.errors, id: field.errorID, itemName: field.itemName, into: &writer)
    }

    /// The inline error paragraph `id` that a control (or a section) names in `aria-describedby`; each
    /// message is prefixed, for screen readers only, with "Error:". An item's messages mark the item's
    /// name, `itemName` (`HTMLWriter.errorMessage`).
    func writeErrors(_ errors: [PageError], id: String, itemName: String? = nil, into writer: inout HTMLWriter) {
        guard !errors.isEmpty else { return }
        writer.markup("<p class=\"fw-error\"")
        writer.attribute("id", id)
        writer.markup(">")
        for (offset, error) in errors.enumerated() {
            if offset > 0 { writer.markup("<br>") }
            writer.markup("<span class=\"fw-visually-hidden\"")
            writer.lang(texts.lang("errorPrefix"))
            writer.markup(">")
            writer.text(texts.errorPrefix)
            writer.markup("</span>")
            let lang = error.language.flatMap { texts.lang(language: $0) }
            if let lang {
                writer.markup("<span")
                writer.attribute("lang", lang)
                writer.markup(">")
            }
            writer.errorMessage(error.message, naming: itemName, nameLang: lang == nil ? nil : texts.pageLanguage)
            if lang != nil { writer.markup("</span>") }
        }
        writer.markup("</p>\n")
    }

    /// ` id="…" name="…"`, `autofocus` when the field takes focus on load, and a custom type's
    /// attributes for its script.
    func writeIdentity(_ field: FieldView, into writer: inout HTMLWriter) {
        writer.attribute("id", field.id)
        if let name = field.name { writer.attribute("name", name) }
        writer.flag("autofocus", field.autofocus)
        writer.html(field.plan.data)
    }

    /// `required`, `disabled`, `aria-describedby` and `aria-invalid`. With `novalidate` on the form,
    /// `required` does not block a submission: it tells assistive technology, and CSS, what the
    /// server will demand.
    func writeState(_ field: FieldView, requirable: Bool, into writer: inout HTMLWriter) {
        writer.flag("required", requirable && field.required)
        writer.flag("disabled", field.disabled)
        if let describedBy = field.describedBy { writer.attribute("aria-describedby", describedBy) }
        if !field.errors.isEmpty { writer.markup(" aria-invalid=\"true\"") }
    }

    func writeAction(_ field: FieldView, into writer: inout HTMLWriter) {
        if let link = field.plan.link {
            writer.markup("<a class=\"fw-button\"")
            writer.attribute("id", field.id)
            writer.attribute("href", escaped: link)
            writer.markup(">")
            writer.html(field.plan.label)
            writer.markup("</a>\n")
        } else {
            // Without a URL a button row has nothing to do on the web unless a script gives it a job.
            writer.markup("<button type=\"button\" class=\"fw-button\"")
            writer.attribute("id", field.id)
            writer.flag("disabled", field.disabled)
            writer.markup(">")
            writer.html(field.plan.label)
            writer.markup("</button>\n")
        }
    }
}
