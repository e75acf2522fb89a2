import FormModel
import FormPredicate
import Foundation

/// Every fact of one submission, computed in the form's dependency order (DESIGN.md, server-side
/// rules 3–5): sections' and rows' hidden and disabled states, and the value each row shows to
/// conditions. Nothing here outlives the request.
struct Resolution {
    let form: CompiledForm
    var rowHidden: [Bool]
    var rowDisabled: [Bool]
    var rowRequired: [Bool]
    var sectionHidden: [Bool]
    /// Each row's value after resolution: the server's value when disabled, else the decoded one.
    var values: [FormValue?]
    /// What conditions read for each row: null when hidden under `hiddenValues: clear`.
    var conditionValues: [PredicateValue]
    /// What conditions read for each multivalued section.
    var sectionValues: [PredicateValue]
    /// How each condition was decided, when the verdict is to be explained.
    var trace: Trace?
    /// Per row: whether what was sent could not be decoded (its error is reported on that row).
    var undecodable: [Bool]

    init(form: CompiledForm, explain: Bool) {
        self.form = form
        let rows = form.rows.count
        let sections = form.sections.count
        rowHidden = Array(repeating: false, count: rows)
        rowDisabled = Array(repeating: false, count: rows)
        rowRequired = Array(repeating: false, count: rows)
        sectionHidden = Array(repeating: false, count: sections)
        values = Array(repeating: nil, count: rows)
        conditionValues = Array(repeating: .null, count: rows)
        sectionValues = Array(repeating: .array([]), count: sections)
        trace = explain ? Trace(rows: rows, sections: sections) : nil
        undecodable = Array(repeating: false, count: rows)
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

    /// Computes every fact in order. `submitted(row)` gives a row's decoded value, `items(section)` a
    /// multivalued section's.
    mutating func resolve(submitted: (Int) -> FormValue?, items: (Int) -> [FormValue]) {
        let clear = form.form.hiddenValues == .clear
        for fact in form.order {
            switch fact {
            case .sectionHidden(let index):
                sectionHidden[index] = decide(form.sections[index].hidden) { $0.sections[index].hidden = $1 }
            case .sectionValue(let index):
                sectionValues[index] =
                    clear && sectionHidden[index] ? .null : .array(items(index).map(\.predicateValue))
            case .rowHidden(let index):
                let row = form.rows[index]  // a class: one retain
                if sectionHidden[row.sectionIndex] {
                    rowHidden[index] = true
                    trace?.rows[index].hidden = .section(row.sectionIndex)
                } else {
                    rowHidden[index] = decide(row.hidden) { $0.rows[index].hidden = $1 }
                }
            case .rowDisabled(let index):
                let row = form.rows[index]
                if form.form.disabled {
                    rowDisabled[index] = true
                    trace?.rows[index].disabled = .form
                } else {
                    rowDisabled[index] = decide(row.disabled) { $0.rows[index].disabled = $1 }
                }
            case .rowValue(let index):
                // Rule 5: a disabled row keeps the server's value, whatever was posted.
                values[index] = rowDisabled[index] ? form.rows[index].row.value : submitted(index)
                conditionValues[index] = clear && rowHidden[index] ? .null : values[index].predicateValue
            }
        }
        for row in form.rows {
            rowRequired[row.index] = decide(row.required) { $0.rows[row.index].required = $1 }
        }
    }

    /// Evaluates `condition` against the facts known so far, recording how when tracing.
    mutating func decide(_ condition: CompiledCondition, record: (inout Trace, Decision) -> Void) -> Bool {
        switch condition {
        case .constant(let flag):
            if trace != nil { record(&trace!, .constant(flag)) }
            return flag
        case .predicate(let predicate, let bindings):
            let inputs = bindings.map { value(of: $0) as PredicateValue? }
            let outcome: Result<Bool, PredicateEvaluationError>
            do { outcome = .success(try predicate.evaluate(in: inputs)) } catch { outcome = .failure(error) }
            if trace != nil {
                let read = zip(predicate.variables, inputs).map { ($0.description, $1 ?? .null) }
                record(&trace!, .predicate(source: predicate.source, inputs: read, outcome: outcome))
            }
            // A condition that cannot be evaluated (a type the author did not expect) is false: the row
            // stays visible and enabled, and its validators still run.
            return (try? outcome.get()) ?? false
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
    /// ISO-8601 text (which orders chronologically), a file as its name.
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
        case .date, .time, .dateTime: .string(description)
        case .duration(let seconds): .number(Double(seconds))
        case .file(let file): .string(file.filename)
        }
    }
}
