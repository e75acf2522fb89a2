import FormModel
import FormPredicate

extension Verdict {
    /// The whole verdict as JSON, for `formwright evaluate` and `POST /forms/{id}/explain`: `valid`,
    /// `errors`, both payloads, and for every row and section whether it is hidden, disabled and
    /// required and which condition decided it, with the values the condition read; and every condition
    /// that could not be evaluated (`conditionFailures`: `place`, `condition`, `error`), validators' too.
    public var explanationJSON: JSONValue {
        var rows: [JSONValue] = []
        for row in form.rows {
            let trace = self.trace?.rows[row.index]
            var pairs: [(String, JSONValue)] = []
            if let tag = row.row.tag { pairs.append(("tag", .string(tag))) }
            pairs.append(("path", .string(row.path)))
            pairs.append(("type", .string(row.row.type.name)))
            pairs.append(("hidden", state(rowHidden[row.index], trace?.hidden)))
            pairs.append(("disabled", state(rowDisabled[row.index], trace?.disabled)))
            pairs.append(("required", state(rowRequired[row.index], trace?.required)))
            pairs.append(("value", values[row.index].map { .string($0.description) } ?? .null))
            rows.append(.object(pairs))
        }
        let sections: [JSONValue] = form.sections.map { section in
            var pairs: [(String, JSONValue)] = [("index", .integer(section.index))]
            if let tag = section.section.tag { pairs.append(("tag", .string(tag))) }
            if let tag = section.section.multivaluedTag { pairs.append(("multivaluedTag", .string(tag))) }
            pairs.append(("hidden", state(sectionHidden[section.index], trace?.sections[section.index].hidden)))
            return .object(pairs)
        }
        let payload = payloads()
        return .object([
            ("form", .string(form.form.id)),
            ("valid", .bool(isValid)),
            ("errors", errorsJSON["errors"] ?? .array([])),
            (
                "conditionFailures",
                .array(
                    conditionFailures.map { failure in
                        .object([
                            ("place", .string(failure.place.description(in: form))),
                            ("condition", .string(failure.source)), ("error", .string("\(failure.error)")),
                        ])
                    })
            ),
            ("httpParameters", payload.httpParameters),
            ("formValues", payload.formValues),
            ("rows", .array(rows)),
            ("sections", .array(sections)),
        ])
    }

    private func state(_ flag: Bool, _ decision: Decision?) -> JSONValue {
        var pairs: [(String, JSONValue)] = [("value", .bool(flag))]
        if let decision { pairs.append(("decidedBy", Self.json(decision))) }
        return .object(pairs)
    }

    private static func json(_ decision: Decision) -> JSONValue {
        switch decision {
        case .constant(let flag): return .object([("constant", .bool(flag))])
        case .section(let index): return .object([("section", .integer(index))])
        case .form: return .object([("form", .string("the whole form is disabled"))])
        case .predicate(let source, let inputs, let outcome):
            var pairs: [(String, JSONValue)] = [
                ("predicate", .string(source)),
                ("read", .object(inputs.map { ($0.0, json($0.1)) })),
            ]
            switch outcome {
            case .success(let result): pairs.append(("result", .bool(result)))
            case .failure(let error):
                pairs.append(("result", .bool(false)))
                pairs.append(("error", .string("\(error)")))
            }
            return .object(pairs)
        }
    }

    /// A predicate value as JSON.
    static func json(_ value: PredicateValue) -> JSONValue {
        switch value {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .number(let number):
            number.isFinite
                ? .number(number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : "\(number)")
                : .null
        case .string(let text): .string(text)
        case .array(let items): .array(items.map(json))
        case .dictionary(let pairs): .object(pairs.sorted { $0.key < $1.key }.map { ($0.key, json($0.value)) })
        }
    }
}
