/// A form written in Swift instead of a JSON or YAML descriptor: the same `Form`, plus the custom
/// validators its rows registered as closures. Every modifier returns a modified copy.
///
/// ```swift
/// let event = FormDefinition("event", title: "Add Event") {
///     SectionDefinition {
///         RowDefinition(.text, "title", title: "Title").required().maxLength(100)
///         RowDefinition(.text, "code", title: "Code").validate("code") { $0.description.count == 6 ? nil : "6 characters" }
///     }
/// }
/// .submitTitle("Add")
/// let compiled = try event.compiled()  // the form compiled, or every problem of the definition
/// event.customValidators["code"]       // the closure, for the engine
/// ```
///
/// Rows written directly among the sections are gathered, each run of neighbours, into an untitled section.
public struct FormDefinition: Sendable {
    /// The model form, equal to the one a descriptor with the same settings loads.
    public internal(set) var form: Form
    /// The closures the rows registered with `validate(_:message:check:)`, by name.
    public let customValidators: [String: CustomValidator]
    /// Programmer errors found while building: a name given a closure by two rows. The first closure is
    /// kept; `compiled()` throws these with the compiler's own problems. Empty for a sound definition.
    public let problems: [LoadProblem]
    /// Where the definition is written (`#fileID`), named in its problems.
    public let file: String

    /// A form with `id` (the URL id: `/forms/<id>`), `title` and the sections `content` lists.
    public init(
        _ id: String, title: String? = nil, file: String = #fileID,
        @ListBuilder<SectionDefinition> content: () -> [SectionDefinition]
    ) {
        let sections = SectionDefinition.gatheringLooseRows(content())
        var validators: [String: CustomValidator] = [:]
        var firstPlace: [String: String] = [:]
        var problems: [LoadProblem] = []
        for (index, section) in sections.enumerated() {
            for (path, validator) in section.registrations {
                let place = "sections[\(index)].\(path)"
                if let first = firstPlace[validator.name] {
                    problems.append(
                        LoadProblem(
                            file: file, path: place,
                            message: "the custom validator '\(validator.name)' already has a closure (from \(first)); "
                                + "the first is kept: write .validate(.custom(\"\(validator.name)\")) to reuse it"))
                    continue
                }
                firstPlace[validator.name] = place
                validators[validator.name] = validator
            }
        }
        form = Form(id: id, title: title, sections: sections.map(\.section))
        customValidators = validators
        self.problems = problems
        self.file = file
    }

    /// A definition of `form` as it is, with `problems` found while making it.
    init(form: Form, problems: [LoadProblem], file: String) {
        self.form = form
        customValidators = [:]
        self.problems = problems
        self.file = file
    }

    /// Compiles the form with `FormCompiler`, or throws the definition's `problems` followed by every
    /// problem the compiler finds (duplicate tags, predicate syntax, unknown tags, cycles).
    public func compiled() throws(LoadProblems) -> CompiledForm {
        var problems = self.problems
        // The id becomes a URL path segment, as a descriptor file's does.
        if form.id.isEmpty || !form.id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) {
            problems.append(
                LoadProblem(
                    file: file, path: "id",
                    message: "a form id is letters, digits, '-' and '_' only, found '\(form.id)'"))
        }
        switch Result(catching: { () throws(LoadProblems) in try FormCompiler().compile(form, file: file) }) {
        case .success(let compiled) where problems.isEmpty: return compiled
        case .success: throw LoadProblems(problems)
        case .failure(let failure): throw LoadProblems(problems + failure.problems)
        }
    }

    /// A copy of this definition with `change` applied to its model form.
    func updating(_ change: (inout Form) -> Void) -> FormDefinition {
        var copy = self
        change(&copy.form)
        return copy
    }
}
