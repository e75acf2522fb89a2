import FormModel
import FormPredicate
import Foundation

/// Every fact of one submission, computed in the form's dependency order (docs/submissions.md,
/// rules 3–5): sections' and rows' hidden and disabled states, and the value each row shows to
/// conditions. Nothing here outlives the request.
///
/// The state arrays start as the plan's shared ones and are copied only when a request changes them
/// (a flag set, a value read by a condition), so a typical submission allocates few of them.
struct Resolution {
    let plan: FormPlan
    var rowHidden: [Bool]
    var rowDisabled: [Bool]
    var rowRequired: [Bool]
    var sectionHidden: [Bool]
    /// Each row's value after resolution: the server's value when disabled, else the decoded one.
    var values: [FormValue?]
    /// What conditions read for each row: null when hidden under `hiddenValues: clear`. Computed only
    /// for the rows some condition or `equalsRow` validator reads (`RowPlan.isRead`); null for the rest.
    var conditionValues: [PredicateValue]
    /// What conditions read for each multivalued section.
    var sectionValues: [PredicateValue]
    /// How each condition was decided, when the verdict is to be explained.
    var trace: Trace?
    /// Per row: whether what was sent could not be decoded (its error is reported on that row).
    var undecodable: [Bool]
    /// Per row index: the value of the record being edited (docs/submissions.md, rule 5's "stored value").
    let stored: [Int: FormValue?]
    /// The inputs of the predicate being evaluated, kept to reuse its storage from one to the next.
    private var inputs: [PredicateValue?] = []
    /// The conditions that could not be evaluated and counted as false, in the order decided.
    private(set) var failures: [ConditionFailure] = []
    /// The matching work the submission's conditions and patterns may still do.
    let budget: EvaluationBudget

    /// The form judged.
    var form: CompiledForm { plan.form }

    /// A resolution starting from `values`, the rows' decoded values (nil where undecodable); `stored`
    /// holds the values of the record being edited, which disabled rows keep.
    init(
        plan: FormPlan, values: [FormValue?], stored: [Int: FormValue?] = [:], explain: Bool,
        budget: EvaluationBudget
    ) {
        self.plan = plan
        self.budget = budget
        self.stored = stored
        rowHidden = plan.noRows
        rowDisabled = plan.noRows
        rowRequired = plan.constantRequired
        sectionHidden = plan.noSections
        self.values = values
        conditionValues = plan.nullRows
        sectionValues = plan.emptySections
        trace = explain ? Trace(rows: plan.rows.count, sections: plan.form.sections.count) : nil
        undecodable = plan.noRows
    }

    /// Whether `condition` reads the value of a row whose input could not be decoded.
    func readsUndecodable(_ condition: CompiledCondition) -> Bool {
        condition.reads.contains { fact in
            // A hidden or disabled row's input is not judged, so its junk must not switch off a rule.
            if case .rowValue(let index) = fact {
                return undecodable[index] && !rowDisabled[index] && !rowHidden[index]
            }
            return false
        }
    }

    /// Computes every fact in order. `items(section)` gives a multivalued section's decoded values.
    mutating func resolve(items: (Int) -> [FormValue]) {
        resolve(plan: plan, items: items)
    }

    private mutating func resolve(plan: FormPlan, items: (Int) -> [FormValue]) {
        for fact in plan.form.order {
            switch fact {
            case .sectionHidden(let index):
                let hidden = decide(
                    constant: plan.sectionHiddenConstants[index], plan.form.sections[index].hidden,
                    at: .sectionHidden(index)
                ) { $0.sections[index].hidden = $1 }
                if hidden { sectionHidden[index] = true }
            case .sectionValue(let index):
                sectionValues[index] =
                    plan.clearsHidden && sectionHidden[index] ? .null : .array(items(index).map(\.predicateValue))
            case .rowHidden(let index):
                plan.withRow(index) { rowPlan, row in
                    if sectionHidden[row.sectionIndex] {
                        rowHidden[index] = true
                        trace?.rows[index].hidden = .section(row.sectionIndex)
                    } else if decide(
                        constant: rowPlan.hiddenConstant, row.hidden, at: .rowHidden(index),
                        record: { $0.rows[index].hidden = $1 })
                    {
                        rowHidden[index] = true
                    }
                }
            case .rowDisabled(let index):
                if plan.isDisabled {
                    rowDisabled[index] = true
                    trace?.rows[index].disabled = .form
                } else if plan.withRow(
                    index,
                    { rowPlan, row in
                        decide(
                            constant: rowPlan.disabledConstant, row.disabled, at: .rowDisabled(index),
                            record: { $0.rows[index].disabled = $1 })
                    })
                {
                    rowDisabled[index] = true
                }
            case .rowValue(let index):
                plan.withRow(index) { rowPlan, row in
                    // Rule 5: a disabled row keeps the server's value, whatever was posted: the stored
                    // record's when one is edited, else the descriptor's.
                    // (An empty table is not searched: most forms edit no record.)
                    if rowDisabled[index] {
                        values[index] = stored.isEmpty ? row.row.value : stored[index] ?? row.row.value
                    }
                    // Only values some condition reads are converted; every other row stays null here.
                    guard rowPlan.isRead, !(plan.clearsHidden && rowHidden[index]) else { return }
                    conditionValues[index] = values[index].predicateValue
                }
            }
        }
        // A constant `required` is already in place (the plan's `constantRequired`) unless tracing.
        for index in trace == nil ? plan.predicateRequired : Array(plan.rows.indices) {
            plan.withRow(index) { _, row in
                let required = decide(row.required, at: .rowRequired(index)) { $0.rows[index].required = $1 }
                if required != rowRequired[index] { rowRequired[index] = required }
            }
        }
    }

    /// `decide(condition)`, or `constant`, the plan's value of a condition known to be a constant: then,
    /// unless tracing, the condition is not read at all (reading one out of its row copies it).
    mutating func decide(
        constant: Bool?, _ condition: @autoclosure () -> CompiledCondition, at place: ConditionPlace,
        record: (inout Trace, Decision) -> Void
    ) -> Bool {
        if let constant, trace == nil { return constant }
        return decide(condition(), at: place, record: record)
    }

    /// Evaluates `condition`, found at `place`, against the facts known so far, recording how when
    /// tracing, and in `failures` when it cannot be evaluated.
    mutating func decide(
        _ condition: CompiledCondition, at place: ConditionPlace, record: (inout Trace, Decision) -> Void
    ) -> Bool {
        switch condition {
        case .constant(let flag):
            if trace != nil { record(&trace!, .constant(flag)) }
            return flag
        case .predicate(let predicate, let bindings):
            inputs.removeAll(keepingCapacity: true)
            for binding in bindings { inputs.append(value(of: binding)) }
            let outcome: Result<Bool, PredicateEvaluationError>
            do { outcome = .success(try predicate.evaluate(in: inputs, budget: budget)) } catch {
                outcome = .failure(error)
            }
            if trace != nil {
                let read = zip(predicate.variables, inputs).map { ($0.description, $1 ?? .null) }
                record(&trace!, .predicate(source: predicate.source, inputs: read, outcome: outcome))
            }
            // A condition that cannot be evaluated (a type the author did not expect) is false: the row
            // stays visible and enabled, and its validators still run. Noted, for the log and `check`.
            guard case .success(let result) = outcome else {
                // A spent budget is the values' doing, not the condition's: the verdict refuses it as a whole.
                if case .failure(let error) = outcome, error.code != .budgetSpent {
                    failures.append(ConditionFailure(place: place, source: predicate.source, error: error))
                }
                return false
            }
            return result
        }
    }

    /// The current value of a fact.
    func value(of fact: FormFact) -> PredicateValue {
        switch fact {
        case .rowValue(let index): conditionValues[index]
        case .rowHidden(let index): .bool(rowHidden[index])
        case .rowDisabled(let index): .bool(rowDisabled[index])
        case .sectionHidden(let index): .bool(sectionHidden[index])
        case .sectionValue(let index): sectionValues[index]
        }
    }
}

extension Optional where Wrapped == FormValue {
    /// What a predicate reads for the value: null for no value.
    var predicateValue: PredicateValue { map(\.predicateValue) ?? .null }
}

extension FormValue {
    /// What a predicate reads: numbers as numbers, options as their values, dates and times as
    /// ISO-8601 text (which orders chronologically), a file as its name. A date-time reads as its
    /// instant in UTC (`2026-10-25T00:45:00Z`): text orders instants only at one fixed offset, and the
    /// form zone's own changes with daylight saving (02:45+02:00 comes before 02:30+01:00).
    var predicateValue: PredicateValue {
        switch self {
        case .text(let text): .string(text)
        case .integer(let number): .number(Double(number))
        // The nearest double to the exact decimal, as the browser's Number() of the same text gives
        // (NSDecimalNumber.doubleValue is not correctly rounded: 0.07 would read 0.06999999999999999).
        case .decimal(let number): .number((Double(number.description) ?? 0) + 0)
        case .bool(let flag): .bool(flag)
        case .option(let value): .string(value)
        case .options(let values): .array(values.map(PredicateValue.string))
        // `ISOWriter` writes the same text as `description`, without its intermediate strings.
        case .date(let date): .string(ISOWriter.string { $0.append(date) })
        case .time(let time): .string(ISOWriter.string { $0.append(time, secondsAlways: false) })
        // Seconds always: `…10:00Z` would order after `…10:00:30Z`. (`utc` is nil only for a value built
        // in Swift within hours of year 1 or 9999; a submitted one never is.)
        case .dateTime(let dateTime): dateTime.utc.map { utc in .string(ISOWriter.string { $0.append(utc) }) } ?? .null
        case .duration(let seconds): .number(Double(seconds))
        case .file(let file): .string(file.filename)
        }
    }
}
