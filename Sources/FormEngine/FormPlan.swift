import FormModel
import FormPredicate

/// What an engine works out once per form, so that judging a submission only reads it: per-row facts
/// that would otherwise be derived from the descriptor on every request, the state a submission starts
/// from, and the payload's option objects.
///
/// A class: the resolution, the judgement and the verdict of every request hold it for one retain,
/// where copying the `CompiledForm` costs one per field.
final class FormPlan: Sendable {
    /// The form judged.
    let form: CompiledForm
    /// Per row index.
    let rows: [RowPlan]
    /// Whether hidden rows read as null to conditions (`hiddenValues: clear`, rule 4).
    let clearsHidden: Bool
    /// Whether the whole form is disabled.
    let isDisabled: Bool
    /// Whether any section is multivalued.
    let hasMultivaluedSections: Bool
    /// The most keys a payload can have: one per tagged input row outside multivalued sections, one
    /// per multivalued section.
    let payloadKeys: Int
    /// Every row false: where `rowHidden`, `rowDisabled` and the undecodable flags start. Shared by
    /// every request until one sets a flag (arrays copy on write), so most requests allocate none.
    let noRows: [Bool]
    /// Every section false: where `sectionHidden` starts.
    let noSections: [Bool]
    /// The `required` of rows whose condition is a constant; a predicate's row starts false.
    let constantRequired: [Bool]
    /// The rows whose `required` is a predicate, in order: the only ones a request decides.
    let predicateRequired: [Int]
    /// Every row null: where the values conditions read start.
    let nullRows: [PredicateValue]
    /// Every section an empty array: where multivalued sections' values start.
    let emptySections: [PredicateValue]
    /// Per section: its `hidden` when that is a constant, nil for a predicate.
    let sectionHiddenConstants: [Bool?]

    init(form: CompiledForm, optionSources: [String: OptionSource] = [:]) {
        self.form = form
        let read = Self.rowsRead(in: form)
        rows = form.rows.map {
            RowPlan(
                form.rows[$0.index], in: form, isRead: read[$0.index],
                source: $0.row.optionsFrom.flatMap { optionSources[$0] })
        }
        clearsHidden = form.form.hiddenValues == .clear
        isDisabled = form.form.disabled
        hasMultivaluedSections = form.sections.contains { $0.section.isMultivalued }
        payloadKeys =
            rows.count { $0.field != nil } + form.sections.count { $0.section.multivaluedTag != nil && $0.item != nil }
        noRows = form.rows.map { _ in false }
        noSections = form.sections.map { _ in false }
        constantRequired = form.rows.map { $0.required.isAlways }
        predicateRequired = form.rows.filter { $0.required.constant == nil }.map(\.index)
        nullRows = form.rows.map { _ in .null }
        emptySections = form.sections.map { _ in .array([]) }
        sectionHiddenConstants = form.sections.map { $0.hidden.constant }
    }

    /// Calls `body` with row `index`'s plan and compiled row.
    func withRow<Result>(_ index: Int, _ body: (RowPlan, CompiledRow) throws -> Result) rethrows -> Result {
        try body(rows[index], form.rows[index])
    }

    /// Per row: whether any condition, or an `equalsRow` validator, reads its value.
    private static func rowsRead(in form: CompiledForm) -> [Bool] {
        var read = form.rows.map { _ in false }
        func mark(_ condition: CompiledCondition?) {
            for case .rowValue(let index) in condition?.reads ?? [] { read[index] = true }
        }
        func mark(_ validators: [CompiledValidator]) {
            for validator in validators {
                mark(validator.condition)
                if let other = validator.otherRow { read[other] = true }
            }
        }
        for row in form.rows {
            mark(row.hidden)
            mark(row.disabled)
            mark(row.required)
            mark(row.validators)
        }
        for section in form.sections {
            mark(section.hidden)
            mark(section.item?.validators ?? [])
        }
        return read
    }
}

/// One row's constant facts, as the request path asks them. A class: the request path reads a row's
/// plan for one retain, where copying the struct would cost one per stored string and array.
final class RowPlan: Sendable {
    /// The name its value is posted under: tagged rows that take input outside multivalued sections.
    let field: String?
    /// What the row holds.
    let kind: ValueKind
    /// Whether whitespace-only text is a value: only a password's is (docs/submissions.md, rule 6).
    let keepsBlank: Bool
    /// Whether a person can enter a value (not info, button or label rows).
    let takesInput: Bool
    /// Whether its section is multivalued: then its values come as the section's items.
    let inMultivaluedSection: Bool
    /// Whether a condition or an `equalsRow` validator reads its value; no other row's predicate value
    /// is ever computed.
    let isRead: Bool
    /// Whether an `email` row is checked as `type=email` (it lists no `email` validator itself).
    let checksEmail: Bool
    /// Whether a `url` row is checked as `type=url` (it lists no `url` validator itself).
    let checksURL: Bool
    /// `formValues`' `{"value", "title"}` of each option, in the options' order.
    let optionObjects: [JSONValue]
    /// The same objects as JSON bytes, for the payload written without a tree.
    let optionBytes: [[UInt8]]
    /// Its `hidden` and `disabled` when each is a constant (most are), nil for a predicate: a request
    /// reads these rather than copy the condition out of the compiled row.
    let hiddenConstant: Bool?
    let disabledConstant: Bool?
    /// `"tag":`, the row's key in both payloads, escaped once; empty for a row that posts no field.
    let keyBytes: [UInt8]
    /// A custom row type's own decoder and check, and its name for the problems they report.
    let custom: CustomRowBehaviour?
    let typeName: String
    /// Where a selector's options come from when its descriptor names a source (`optionsFrom`).
    let source: OptionSource?
    /// Whether the row names a source (registered or not: an unregistered one confirms nothing).
    let searchesOptions: Bool

    init(_ compiled: CompiledRow, in form: CompiledForm, isRead: Bool, source: OptionSource? = nil) {
        let row = compiled.row
        kind = row.type.valueKind
        keepsBlank = row.type.isSecret
        takesInput = row.type.takesInput
        inMultivaluedSection = form.sections[compiled.sectionIndex].section.isMultivalued
        field = takesInput && !inMultivaluedSection ? row.tag : nil
        self.isRead = isRead
        checksEmail = row.type.syntax == .email && !compiled.validators.contains { $0.spec.kindName == "email" }
        checksURL = row.type.syntax == .webURL && !compiled.validators.contains { $0.spec.kindName == "url" }
        optionObjects = row.options.map { Verdict.optionObject(value: $0.value, title: $0.title) }
        optionBytes = optionObjects.map(\.bytes)
        hiddenConstant = compiled.hidden.constant
        disabledConstant = compiled.disabled.constant
        var key: [UInt8] = []
        if let field {
            JSONValue.writeString(field, to: &key)
            key.append(UInt8(ascii: ":"))
        }
        keyBytes = key
        custom = row.type.custom
        typeName = row.type.name
        self.source = source
        searchesOptions = row.optionsFrom != nil
    }
}
