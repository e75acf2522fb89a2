import FormModel
import FormPredicate
import Foundation

/// The rules of one row, run on its resolved, non-empty value: the row's own limits (`maxLength`,
/// `min`, `max`, the syntax its type implies), then its validators in the order written
/// (docs/submissions.md, rule 7). Each rule returns a problem or nil.
struct Rules {
    let customValidators: [String: CustomValidator]
    /// The largest upload accepted, in bytes; nil: any size the body limit lets through.
    var maximumFileSize: Int? = nil

    /// Reports every failing rule of a row for `value`, in order, each with the descriptor's own
    /// message for it when the validator gives one.
    func check(
        _ compiled: CompiledRow, _ plan: RowPlan, value: FormValue, resolution: inout Resolution,
        report: (Problem, String?) -> Void
    ) {
        // The row's settings are read one by one: passing the whole `Row` would copy it, a retain per field.
        let limits = Limits(
            maxLength: compiled.row.maxLength, min: compiled.row.min, max: compiled.row.max, accept: compiled.row.accept
        )
        let tooLong = intrinsic(limits, checksEmail: plan.checksEmail, checksURL: plan.checksURL, value: value) {
            report($0, nil)
        }
        if plan.custom != nil { checkCustom(value, options: compiled.row.options, plan: plan, report: report) }
        validate(
            compiled.validators, value: value, at: .validator(row: compiled.index), tooLong: tooLong,
            resolution: &resolution, report: report)
    }

    /// Runs `validators` in order, reporting each problem; after a length limit has failed (`tooLong`, or a
    /// `maxLength` validator) none runs: the length error says what to fix, and a value too long for its
    /// row must not cost the pattern matching that its length would.
    private func validate(
        _ validators: [CompiledValidator], value: FormValue, at place: ConditionPlace, tooLong: Bool,
        resolution: inout Resolution, report: (Problem, String?) -> Void
    ) {
        guard !tooLong else { return }
        for validator in validators {
            guard let problem = check(validator, value: value, at: place, resolution: &resolution) else { continue }
            report(problem, validator.spec.message)
            if case .maxLength = problem { return }
        }
    }

    /// Reports every failing rule of a multivalued section's item for `value`, as `check` does for a row.
    func check(
        _ item: CompiledItem, of section: Int, value: FormValue, resolution: inout Resolution,
        report: (Problem, String?) -> Void
    ) {
        let row = item.row
        let checksEmail = row.type.syntax == .email && !item.validators.contains { $0.spec.kindName == "email" }
        let checksURL = row.type.syntax == .webURL && !item.validators.contains { $0.spec.kindName == "url" }
        let limits = Limits(maxLength: row.maxLength, min: row.min, max: row.max, accept: row.accept)
        let tooLong = intrinsic(limits, checksEmail: checksEmail, checksURL: checksURL, value: value) {
            report($0, nil)
        }
        if let custom = row.type.custom {
            checkCustom(
                value, options: row.options, custom: custom, kind: row.type.valueKind, typeName: row.type.name,
                report: report)
        }
        validate(
            item.validators, value: value, at: .itemValidator(section: section), tooLong: tooLong,
            resolution: &resolution, report: report)
    }

    /// What a custom row type demands of a value: one of its options when it has some (a type whose
    /// control is a choice, like a rating), then its own check.
    private func checkCustom(_ value: FormValue, options: [Option], plan: RowPlan, report: (Problem, String?) -> Void) {
        guard let custom = plan.custom else { return }
        checkCustom(value, options: options, custom: custom, kind: plan.kind, typeName: plan.typeName, report: report)
    }

    private func checkCustom(
        _ value: FormValue, options: [Option], custom: CustomRowBehaviour, kind: ValueKind, typeName: String,
        report: (Problem, String?) -> Void
    ) {
        // A selector kind's decoder already checks the options; another kind's value must be one of them.
        if !options.isEmpty, ![.option, .options].contains(kind),
            !options.contains(where: { $0.value == value.inputText })
        {
            report(.unknownOption, nil)
            return
        }
        if let check = custom.check, let message = check(value) {
            report(.custom(name: typeName, message: message), nil)
        }
    }

    /// A row's own limits: `maxLength`, `min`, `max`, and an upload's `accept`.
    private struct Limits {
        let maxLength: Int?
        let min: FormValue?
        let max: FormValue?
        let accept: [String]
    }

    /// The schemes an `url` row accepts without a `url` validator of its own.
    private static let webSchemes = ["http", "https"]

    /// What the row's settings and type demand, before its validators: `maxLength` is enforced on the
    /// server too (rule 8); an `email` or `url` row is checked as HTML's `type=email` / `type=url`
    /// control would be, unless the row lists that validator itself (`checksEmail`, `checksURL` false).
    /// Returns whether the value is over its `maxLength`.
    private func intrinsic(
        _ row: Limits, checksEmail: Bool, checksURL: Bool, value: FormValue, report: (Problem) -> Void
    ) -> Bool {
        var tooLong = false
        if let limit = row.maxLength, case .text(let text) = value, text.utf16.count > limit {
            report(.maxLength(limit))
            tooLong = true
        }
        if let limit = maximumFileSize, case .file(let file) = value, file.size > limit {
            report(.fileTooLarge(limit: limit))
        }
        // A bound is named as the descriptor writes it: a date-time as the form zone's wall-clock time.
        if let bound = row.min, let order = Self.compare(value, bound), order < 0 { report(.min(bound.inputText)) }
        if let bound = row.max, let order = Self.compare(value, bound), order > 0 { report(.max(bound.inputText)) }
        if checksEmail, case .text(let text) = value, !EmailSyntax.isValid(text) {
            report(.email)
        }
        if checksURL, case .text(let text) = value, let problem = Self.url(text, schemes: Self.webSchemes) {
            report(problem)
        }
        if !row.accept.isEmpty, case .file(let file) = value, let problem = FileAccept.problem(file, accept: row.accept)
        {
            report(problem)
        }
        return tooLong
    }

    /// The problem `validator` finds with `value`, if any; `place` names the validator should its
    /// predicate fail to evaluate.
    private func check(
        _ validator: CompiledValidator, value: FormValue, at place: ConditionPlace, resolution: inout Resolution
    ) -> Problem? {
        switch validator.spec.kind {
        case .regex:
            guard let regex = validator.regex else { return nil }
            // Out of budget, the value is neither passed nor blamed: the verdict refuses the whole submission.
            // XLForm's regex validator reads the value without the spaces and tabs around it
            // (`whitespaceCharacterSet`: Unicode's space separators and the tab), so ` 12345 ` is a zip
            // code for `\d{5}` there and here. Line breaks are kept, as XLForm keeps them.
            let text = value.description.trimmingCharacters(in: .whitespaces)
            return ((try? regex.matches(text, budget: resolution.budget)) ?? true) ? nil : .regex
        case .email:
            return EmailSyntax.isValid(value.description) ? nil : .email
        case .url(let schemes):
            return Self.url(value.description, schemes: schemes)
        case .minLength(let limit):
            if case .options(let chosen) = value { return chosen.count < limit ? .minCount(limit) : nil }
            return value.description.utf16.count < limit ? .minLength(limit) : nil
        case .maxLength(let limit):
            if case .options(let chosen) = value { return chosen.count > limit ? .maxCount(limit) : nil }
            return value.description.utf16.count > limit ? .maxLength(limit) : nil
        case .min(let bound):
            return Self.compare(value, bound).map { $0 < 0 } == true ? .min(bound.inputText) : nil
        case .max(let bound):
            return Self.compare(value, bound).map { $0 > 0 } == true ? .max(bound.inputText) : nil
        case .equalsRow:
            guard let other = validator.otherRow else { return nil }
            // What conditions see: a hidden row is null under `hiddenValues: clear` (rule 4).
            let otherValue = resolution.conditionValues[other] == .null ? nil : resolution.values[other]
            return otherValue == value ? nil : .equalsRow(other: resolution.form.rows[other].row.displayName)
        case .predicate:
            // A rule over a value that could not even be read would only repeat that row's error.
            guard let condition = validator.condition, !resolution.readsUndecodable(condition) else { return nil }
            return resolution.decide(condition, at: place) { _, _ in } ? nil : .predicate
        case .custom(let name):
            // Registration is checked when the server starts, so a missing name cannot reach here in
            // `serve`; `evaluate` without Swift validators treats it as passing and says so in the note.
            guard let custom = customValidators[name], let message = custom.check(value) else { return nil }
            return .custom(name: name, message: message)
        }
    }

    /// The URL rule: absolute per WHATWG, and of an allowed scheme.
    static func url(_ text: String, schemes: [String]) -> Problem? {
        switch URLSyntax.check(text, allowedSchemes: schemes) {
        case .valid: nil
        case .schemeNotAllowed: .urlScheme(allowed: schemes)
        default: .url
        }
    }

    /// Orders a value against a bound of a compatible kind: numbers by value, dates and times in time
    /// (date-times as instants), text and selections by length (a `min: 3` on a text row is a minimum length).
    static func compare(_ value: FormValue, _ bound: FormValue) -> Int? {
        func order<T: Comparable>(_ lhs: T, _ rhs: T) -> Int { lhs < rhs ? -1 : (lhs == rhs ? 0 : 1) }
        switch (value, bound) {
        case (.integer(let lhs), .integer(let rhs)): return order(lhs, rhs)
        case (.integer(let lhs), .decimal(let rhs)): return order(Decimal(lhs), rhs)
        case (.decimal(let lhs), .decimal(let rhs)): return order(lhs, rhs)
        case (.decimal(let lhs), .integer(let rhs)): return order(lhs, Decimal(rhs))
        case (.duration(let lhs), .duration(let rhs)), (.duration(let lhs), .integer(let rhs)): return order(lhs, rhs)
        case (.date(let lhs), .date(let rhs)): return order(lhs, rhs)
        case (.time(let lhs), .time(let rhs)): return order(lhs, rhs)
        case (.dateTime(let lhs), .dateTime(let rhs)): return order(lhs, rhs)
        case (.text(let text), .integer(let rhs)): return order(text.utf16.count, rhs)
        case (.options(let chosen), .integer(let rhs)): return order(chosen.count, rhs)
        default: return nil
        }
    }
}
