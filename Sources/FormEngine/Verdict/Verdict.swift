import FormModel
import FormPredicate
import Foundation

/// The server's judgement of one submission: every row's and section's state, the resolved values,
/// the errors, and — when valid — the payload in XLForm's two shapes.
public struct Verdict: Sendable {
    /// The form judged.
    public var form: CompiledForm { plan.form }
    /// The engine's per-form constants (the option objects of the payload among them).
    let plan: FormPlan
    /// The locale of the messages.
    public let locale: String
    /// Every refused value, in page order; empty when the submission is valid. The application's own
    /// refusals of a valid submission come after them (`FormEngine.refusing`).
    public internal(set) var errors: [FieldError]
    /// Per row index: hidden by its own condition or its section.
    public let rowHidden: [Bool]
    /// Per row index: disabled.
    public let rowDisabled: [Bool]
    /// Per row index: required.
    public let rowRequired: [Bool]
    /// Per section index: hidden.
    public let sectionHidden: [Bool]
    /// Per row index: the resolved value (the server's own for a disabled row).
    public let values: [FormValue?]
    /// Per multivalued section index: its items' values, in posted order.
    public let items: [Int: [FormValue]]
    /// Per multivalued section index: the position each of `items` was sent at (empty items are
    /// dropped, so the third value may be the fourth item sent); errors name items by it.
    let itemPositions: [Int: [Int]]
    /// Per row index: the texts sent, to show again on a re-rendered page (never a password's).
    /// Computed when asked for: a JSON answer never needs it. A date-time read from what was sent shows
    /// as its wall-clock reading in the form's zone, which is what a `datetime-local` control can hold
    /// (an instant sent as `…Z` is shown at the form zone's time).
    public var entered: [Int: [String]] {
        guard let fields else { return [:] }
        var entered: [Int: [String]] = [:]
        for row in form.rows where row.row.type.takesInput && !row.row.type.isSecret {
            guard let tag = row.row.tag, !form.sections[row.sectionIndex].section.isMultivalued else { continue }
            if case .dateTime(let dateTime)? = values[row.index], !rowDisabled[row.index], fields.contains(tag) {
                entered[row.index] = [dateTime.local.description]
                continue
            }
            entered[row.index] = fields[tag].compactMap(\.enteredText)
        }
        return entered
    }

    /// The first text posted under `name`, as entered (a field of the page that is no row's, such as a
    /// search field's query); nil for a JSON body or when nothing was posted.
    public func enteredText(named name: String) -> String? {
        guard let fields, !fields.isJSON else { return nil }
        return fields.first(name).flatMap(\.enteredText)
    }

    /// What was submitted; nil for the verdict on the descriptor's defaults.
    let fields: SubmittedFields?
    /// Per multivalued section index: the texts sent for its items.
    public let enteredItems: [Int: [String]]
    /// How every condition was decided, when asked for.
    public let trace: Trace?
    /// The conditions that could not be evaluated, and so counted as false, in the order decided.
    /// Nothing in the answer shows them: the server logs them (once each) for the form's author.
    public let conditionFailures: [ConditionFailure]
    /// Whether the checks needed more steps than the evaluation's budget allowed: the verdict then refuses
    /// the submission as a whole (`tooLongToCheck`), whatever else it found.
    public let spentBudget: Bool

    /// The options sources confirmed for rows that search them (`optionsFrom`), by row index: their
    /// titles, which the form itself does not list.
    public internal(set) var confirmedOptions: [Int: Option] = [:]

    /// Whether the checks could not be finished because an option source failed or was late: the
    /// server answers `503`, as nothing was wrong with what was sent.
    public var optionsUnavailable: Bool { errors.contains { $0.code == Problem.optionsUnavailable.code } }

    /// Whether nothing was refused.
    public var isValid: Bool { errors.isEmpty }

    init(
        plan: FormPlan, locale: String, errors: [FieldError], resolution: Resolution, items: [Int: [FormValue]],
        itemPositions: [Int: [Int]], fields: SubmittedFields?, enteredItems: [Int: [String]]
    ) {
        self.plan = plan
        self.locale = locale
        self.errors = errors
        rowHidden = resolution.rowHidden
        rowDisabled = resolution.rowDisabled
        rowRequired = resolution.rowRequired
        sectionHidden = resolution.sectionHidden
        values = resolution.values
        self.items = items
        self.itemPositions = itemPositions
        self.fields = fields
        self.enteredItems = enteredItems
        trace = resolution.trace
        conditionFailures = resolution.failures
        spentBudget = resolution.budget.isSpent
    }

    /// `{"errors": [{"tag", "message", "code"}]}`: the body of a JSON `422`.
    public var errorsJSON: JSONValue {
        .object([
            (
                "errors",
                .array(
                    errors.map {
                        .object([
                            ("tag", .string($0.tag)), ("message", .string($0.message)), ("code", .string($0.code)),
                        ])
                    })
            )
        ])
    }

    /// `{"httpParameters": {…}, "formValues": {…}}`: the body of a JSON `200`.
    public var payloadJSON: JSONValue {
        let (httpParameters, formValues) = payloads()
        return .object([("httpParameters", httpParameters), ("formValues", formValues)])
    }
}
