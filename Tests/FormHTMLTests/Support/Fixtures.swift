import FormHTML
import FormModel
import FormPredicate
import Foundation
import Testing

/// Example forms and the states the tests render them in.
enum Fixtures {
    /// `Forms/` at the root of the package.
    static let formsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Forms").path

    /// Every example form, loaded once.
    static let catalog = Result { () throws(LoadProblems) -> FormCatalog in try FormCatalog(folder: formsFolder) }

    /// The ids of the example forms.
    static var formIDs: [String] { (try? catalog.get().ids) ?? [] }

    /// The example form `id`.
    static func form(_ id: String) throws -> CompiledForm {
        try #require(try catalog.get().forms[id])
    }

    /// The descriptor `text` (YAML or JSON), loaded and compiled as `{id}.yaml`.
    static func compile(_ text: String, id: String = "test") throws -> CompiledForm {
        let form = try FormLoader().load(text, file: "\(id).yaml", defaultID: id).get()
        return try FormCompiler().compile(form, file: "\(id).yaml")
    }

    /// The page of `form` with its conditions evaluated on the defaults.
    static func page(_ form: CompiledForm) -> FormPage {
        FormPage(form: form, initialState: initialState(form))
    }

    /// What the server computes once per form: each condition evaluated on the descriptor's values, in
    /// the compiler's dependency order, hidden rows null to conditions (`hiddenValues: clear`).
    static func initialState(_ form: CompiledForm) -> PageState {
        var state = PageState(rowCount: form.rows.count, sectionCount: form.sections.count)
        var facts: [FormFact: PredicateValue] = [:]
        func answer(_ condition: CompiledCondition) -> Bool {
            switch condition {
            case .constant(let flag): return flag
            case .predicate(let predicate, let bindings):
                let environment: [PredicateValue?] = bindings.map { facts[$0] ?? .null }
                return (try? predicate.evaluate(in: environment)) ?? false
            }
        }
        for fact in form.order {
            switch fact {
            case .sectionHidden(let index):
                state.sectionHidden[index] = answer(form.sections[index].hidden)
                facts[fact] = .bool(state.sectionHidden[index])
            case .rowHidden(let index):
                let row = form.rows[index]
                state.rowHidden[index] = state.sectionHidden[row.sectionIndex] || answer(row.hidden)
                facts[fact] = .bool(state.rowHidden[index])
            case .rowDisabled(let index):
                state.rowDisabled[index] = answer(form.rows[index].disabled)
                facts[fact] = .bool(state.rowDisabled[index])
            case .rowValue(let index):
                let hidden = state.rowHidden[index] && form.form.hiddenValues == .clear
                facts[fact] = hidden ? .null : predicateValue(form.rows[index].row.value)
            case .sectionValue(let index):
                facts[fact] = .array(form.sections[index].rows.map { predicateValue(form.rows[$0].row.value) })
            }
        }
        for row in form.rows { state.rowRequired[row.index] = answer(row.required) }
        return state
    }

    static func predicateValue(_ value: FormValue?) -> PredicateValue {
        switch value {
        case nil: .null
        case .text(let text), .option(let text): .string(text)
        case .integer(let number): .number(Double(number))
        case .decimal(let number): .number(Double("\(number)") ?? 0)
        case .bool(let flag): .bool(flag)
        case .options(let values): .array(values.map(PredicateValue.string))
        case .some(let value): .string(value.description)
        }
    }

    /// A state with an error on every row that takes input and on every multivalued item, plus one
    /// about the whole form.
    static func stateWithErrors(_ form: CompiledForm) -> PageState {
        var state = initialState(form)
        for row in form.rows where row.row.type.takesInput && !form.sections[row.sectionIndex].section.isMultivalued {
            state.rowHidden[row.index] = false
            state.sectionHidden[row.sectionIndex] = false
            state.errors.append(PageError(row: row.index, message: "\(row.row.displayName) is wrong"))
        }
        for section in form.sections where section.section.isMultivalued {
            state.sectionHidden[section.index] = false
            for position in section.section.rows.indices {
                state.errors.append(PageError(section: section.index, position: position, message: "item \(position)"))
            }
        }
        state.errors.append(PageError(formMessage: "The form is stale"))
        return state
    }

    /// The page's bytes as text.
    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
