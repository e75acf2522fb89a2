/// A section written in Swift: its settings, and its rows as `RowDefinition`s so their custom
/// validators travel with them. Every modifier returns a modified copy.
///
/// ```swift
/// SectionDefinition("Alerts") {
///     RowDefinition(.selectorPush, "alert", title: "Alert").options { "never"; "5m" }
/// }
/// .footer("Alerts are sent by e-mail")
/// ```
public struct SectionDefinition: Sendable {
    /// Every setting but the rows and the row template.
    private var settings: Section
    private var rows: [RowDefinition]
    private var rowTemplate: RowDefinition?
    /// Made by the builder for rows written outside any section; such neighbours merge into one.
    let gathersLooseRows: Bool

    /// A section headed `title`, with `rows`.
    public init(_ title: String? = nil, @ListBuilder<RowDefinition> rows: () -> [RowDefinition]) {
        settings = Section(title: title)
        self.rows = rows()
        gathersLooseRows = false
    }

    /// An untitled section holding rows written among the sections of a form.
    init(looseRows: [RowDefinition]) {
        settings = Section()
        rows = looseRows
        gathersLooseRows = true
    }

    /// The model section, as a descriptor with the same settings would load.
    public var section: Section {
        var section = settings
        section.rows = rows.map(\.row)
        section.rowTemplate = rowTemplate?.row
        return section
    }

    /// The closures registered by the section's rows and row template, each with its place in the
    /// section: `rows[3].validators[0]`, `rowTemplate.validators[1]`.
    var registrations: [(path: String, validator: CustomValidator)] {
        let fromRows = rows.enumerated().flatMap { index, row in
            row.registrations.map { (path: "rows[\(index)].\($0.path)", validator: $0.validator) }
        }
        let fromTemplate = (rowTemplate?.registrations ?? []).map {
            (path: "rowTemplate.\($0.path)", validator: $0.validator)
        }
        return fromRows + fromTemplate
    }

    /// `sections` with each run of neighbouring loose-row sections merged into one.
    static func gatheringLooseRows(_ sections: [SectionDefinition]) -> [SectionDefinition] {
        sections.reduce(into: []) { gathered, section in
            if section.gathersLooseRows, let last = gathered.last, last.gathersLooseRows {
                gathered[gathered.count - 1].rows += section.rows
            } else {
                gathered.append(section)
            }
        }
    }

    /// A name for the section, for `$tag.isHidden` and messages.
    public func tag(_ tag: String?) -> SectionDefinition { updating { $0.settings.tag = tag } }

    /// Text under the section.
    public func footer(_ text: String?) -> SectionDefinition { updating { $0.settings.footer = text } }

    /// Whether the section is hidden, with every row in it.
    public func hidden(_ condition: Condition) -> SectionDefinition { updating { $0.settings.hidden = condition } }

    /// Hidden or not, as a constant (hidden when no argument is given).
    public func hidden(_ flag: Bool = true) -> SectionDefinition { hidden(.constant(flag)) }

    /// Hidden when `predicate` holds: `.hidden("$has_pets == NO")`.
    public func hidden(_ predicate: String) -> SectionDefinition { hidden(.predicate(predicate)) }

    /// Makes the section multivalued: its rows' values are collected into an array under `tag`.
    /// `options` says what a person may do, `template` is the row an insert adds, `maxRows` caps
    /// what is posted (`Section.defaultMaxRows` when nil).
    public func multivalued(
        _ tag: String, options: Section.MultivaluedOptions = [], insertMode: Section.InsertMode = .button,
        template: RowDefinition? = nil, maxRows: Int? = nil
    ) -> SectionDefinition {
        updating {
            $0.settings.multivaluedTag = tag
            $0.settings.multivaluedOptions = options
            $0.settings.insertMode = insertMode
            $0.settings.maxRows = maxRows
            $0.rowTemplate = template
        }
    }

    private func updating(_ change: (inout SectionDefinition) -> Void) -> SectionDefinition {
        var copy = self
        change(&copy)
        return copy
    }
}
