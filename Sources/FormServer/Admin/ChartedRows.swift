import FormEngine
import FormModel

/// The rows of a form that the operator's view charts answer by answer: the booleans, and the selectors
/// (one option or several) whose options the form lists, outside multivalued sections. A store counts
/// each submission under its answers to them (`StoredSubmission.answers`), so a chart reads counts,
/// not submissions. A selector whose options come from a source is not charted: it may have thousands.
struct ChartedRows: Sendable {
    /// One charted row.
    struct Charted: Sendable {
        let tag: String
        let title: String
        /// Its options, in the form's order; `true` and `false` for a boolean.
        let options: [Option]
        let isBoolean: Bool
    }

    let rows: [Charted]

    /// The charted rows of `form`, in page order.
    init(form: CompiledForm) {
        rows = form.sections.flatMap { section -> [Charted] in
            guard section.section.multivaluedTag == nil else { return [] }
            return section.rows.compactMap { index in
                let row = form.rows[index].row
                guard let tag = row.tag, row.optionsFrom == nil else { return nil }
                switch row.type.valueKind {
                case .bool:
                    return Charted(
                        tag: tag, title: row.title ?? tag, options: [Option("true"), Option("false")], isBoolean: true)
                case .option, .options:
                    guard !row.options.isEmpty else { return nil }
                    return Charted(tag: tag, title: row.title ?? tag, options: row.options, isBoolean: false)
                default:
                    return nil
                }
            }
        }
    }

    /// What a submission whose `httpParameters` are `parameters` is counted under: one answer per
    /// charted row that has a value, one per option of a multiple selection; none for the rows
    /// `leftOut`, whose values are not kept.
    func answers(of parameters: JSONValue, leavingOut leftOut: Set<String>) -> [String] {
        guard !rows.isEmpty, case .object(let members) = parameters else { return [] }
        var answers: [String] = []
        for row in rows where !leftOut.contains(row.tag) {
            switch members.first(where: { $0.0 == row.tag })?.1 {
            case .bool(let flag)?: answers.append(Self.answer(row.tag, flag ? "true" : "false"))
            case .string(let value)?: answers.append(Self.answer(row.tag, value))
            case .number(let value)?: answers.append(Self.answer(row.tag, value))
            case .array(let values)?:
                for case .string(let value) in Set(values) { answers.append(Self.answer(row.tag, value)) }
            default: continue
            }
        }
        return answers
    }

    /// The answer `value` of row `tag` as a store counts it: a JSON array, which holds no line break.
    static func answer(_ tag: String, _ value: String) -> String {
        JSONValue.array([.string(tag), .string(value)]).text
    }
}
