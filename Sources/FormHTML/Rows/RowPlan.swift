import FormModel
import Foundation

/// Everything constant about one row's markup, escaped once when the page is built: its control,
/// ids, label, help, options and bounds. Rendering only adds what `PageState` decides.
struct RowPlan: Sendable {
    /// One option of a selector, escaped for both places it appears.
    struct PlannedOption: Sendable {
        /// The value, to compare with what was posted.
        let value: String
        /// The value escaped for `value="…"`.
        let valueAttribute: HTML
        /// The title escaped as text.
        let title: HTML
    }

    let row: Row
    let control: Control
    /// The base element id (see `FieldIDs`).
    let id: String
    /// The name the control posts under, or nil for rows that post nothing.
    let name: String?
    /// The label's text.
    let label: HTML
    /// Help under the label (the row's help, plus the duration format for count-downs).
    let help: HTML?
    let placeholder: HTML?
    /// The descriptor's `autocomplete`, its tokens lower-cased and one space apart; nil for the one the
    /// control implies.
    let autocomplete: HTML?
    let options: [PlannedOption]
    /// The text of a selector's empty option.
    let emptyOption: HTML
    /// The empty option's `lang`, when its text is a fixed one in another language than the page's.
    let emptyOptionLang: String?
    let min: HTML?
    let max: HTML?
    let step: HTML?
    let accept: HTML?
    /// For an upload: the largest file the server accepts, and the row's message for a larger one.
    var uploadLimit: (bytes: String, message: HTML)?
    /// For action rows: the link, when its URL is safe.
    let link: HTML?
    /// The texts shown when `PageState` has none for the row.
    let defaultValues: [String]
    /// Whether the row can ever be required (then the label carries a hideable marker).
    let mayBeRequired: Bool
    /// For a slider: the value a browser gives it when it has none, which its `<output>` shows.
    let rangeDefault: String?
    /// A custom type's attributes for its script, ` data-NAME="value"` each, escaped once.
    let data: HTML
    /// For a row whose options come from a source: where the page script asks for matches.
    var searchURL: String?
    /// The texts that name the row where its control needs them, filled in and escaped once: the "?"
    /// help toggle's (`helpFor`), a step counter's buttons', a long select's filter's, and the label of a
    /// searched row's matches. Nil where the control has no such part.
    let helpToggleName: HTML?
    let stepLabels: (decrease: HTML, increase: HTML)?
    let filterLabel: HTML?
    let matchesLabel: HTML?

    /// `timeZone` is the form's, named under a date-time control. `control` and `label` are the row's
    /// unless given (an item of a multivalued section: `Control(item:)`, `CompiledSection.itemTitle`).
    init(
        row: Row, id: String, name: String?, required: CompiledCondition, texts: PageTexts, timeZone: String,
        control: Control? = nil, label: String? = nil
    ) {
        self.row = row
        self.control = control ?? (row.optionsFrom != nil ? .search : row.type.control)
        self.id = id
        self.name = name
        self.label = HTML(text: label ?? row.title ?? row.tag ?? "")
        help = Self.help(
            row.help, durationHelp: self.control.isDuration, timeZone: row.type.valueKind == .dateTime ? timeZone : nil,
            texts: texts)
        placeholder = row.placeholder.map(HTML.init(attributeValue:))
        autocomplete = row.autocomplete.map {
            HTML(attributeValue: $0.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " "))
        }
        options = row.options.map {
            PlannedOption(value: $0.value, valueAttribute: HTML(attributeValue: $0.value), title: HTML(text: $0.title))
        }
        emptyOption = HTML(text: row.noValueDisplayText ?? texts.chooseOption)
        emptyOptionLang = row.noValueDisplayText == nil ? texts.lang("chooseOption") : nil
        min = ValueTexts.bound(row.min).map(HTML.init(attributeValue:))
        max = ValueTexts.bound(row.max).map(HTML.init(attributeValue:))
        step = ValueTexts.bound(row.step).map(HTML.init(attributeValue:))
        accept = row.accept.isEmpty ? nil : HTML(attributeValue: row.accept.joined(separator: ","))
        link = row.url.flatMap(SafeURL.link).map(HTML.init(attributeValue:))
        // A password is never sent back to the browser, not even the descriptor's (docs/submissions.md, rule 10).
        defaultValues = row.type.isSecret ? [] : ValueTexts.texts(row.value)
        if case .constant(false) = required { mayBeRequired = false } else { mayBeRequired = true }
        if case .range = self.control {
            rangeDefault = RangeValue.defaultText(min: row.min, max: row.max, step: row.step)
        } else {
            rangeDefault = nil
        }
        data = HTML(dataAttributes: row.type.custom?.data ?? [])
        func naming(_ text: String, _ name: String) -> HTML {
            HTML(attributeValue: text.replacingOccurrences(of: "{name}", with: name))
        }
        helpToggleName = row.help == nil ? nil : naming(texts.helpFor, row.displayName)
        let stepName = row.title ?? row.tag ?? ""
        if case .stepper = self.control {
            stepLabels = (naming(texts.decrease, stepName), naming(texts.increase, stepName))
        } else {
            stepLabels = nil
        }
        if case .select(inline: false) = self.control, row.options.count > FieldRenderer.longList {
            filterLabel = naming(texts.filterOptions, row.displayName)
        } else {
            filterLabel = nil
        }
        if case .search = self.control {
            matchesLabel = naming(texts.matchesFor, row.displayName)
        } else {
            matchesLabel = nil
        }
    }
}

extension RowPlan {
    /// The id the error summary links to for a field whose control is `id`: the control, or a group's
    /// first input. A group's `<fieldset>` cannot take focus, so a link to it would leave focus behind.
    func focusID(of id: String) -> String {
        control.isGroup && !options.isEmpty ? id + "-0" : id
    }
}

extension Control {
    var isDuration: Bool {
        if case .duration = self { return true }
        return false
    }
}

extension RowPlan {
    /// The row's help, then for a count-down the format to type, or for a date-time the time zone it is
    /// read in (fixed texts, marked with their language where that is not the page's); nil when there
    /// is none of them.
    fileprivate static func help(_ own: String?, durationHelp: Bool, timeZone: String?, texts: PageTexts) -> HTML? {
        guard own != nil || durationHelp || timeZone != nil else { return nil }
        var writer = HTMLWriter()
        if let own { writer.text(own) }
        if durationHelp {
            if own != nil { writer.text(" ") }
            writer.text(texts.durationHelp, lang: texts.lang("durationHelp"))
        }
        if let timeZone {
            if own != nil { writer.text(" ") }
            writer.text(texts.timeZoneHelp.replacing("{zone}", with: timeZone), lang: texts.lang("timeZoneHelp"))
        }
        return HTML(rendered: writer.bytes)
    }
}
