/// Every form of a folder, loaded and compiled: what `serve` serves and `check` checks.
///
/// ```swift
/// let catalog = try FormCatalog(folder: "Forms")  // throws LoadProblems with every problem of every file
/// catalog.forms["event"]?.rows.count
/// ```
public struct FormCatalog: Sendable {
    /// The compiled forms by id.
    public let forms: [String: CompiledForm]
    /// The ids in file-name order.
    public let ids: [String]

    /// A catalog of forms already compiled (forms built in Swift, or options replaced at start).
    public init(forms: [String: CompiledForm], ids: [String]) {
        self.forms = forms
        self.ids = ids
    }

    /// Loads and compiles every descriptor in `folder`; every problem of every file is collected
    /// before the load fails, so one run shows them all.
    public init(folder: String, loader: FormLoader = FormLoader()) throws(LoadProblems) {
        var forms: [String: CompiledForm] = [:]
        var files: [String: String] = [:]
        var ids: [String] = []
        var problems: [LoadProblem] = []
        for file in try loader.descriptorFiles(in: folder) {
            do {
                let form = try loader.loadFile(file).get()
                let compiled = try FormCompiler().compile(form, file: file)
                if let other = files[form.id] {
                    problems.append(
                        LoadProblem(
                            file: file, path: "id", message: "the form id '\(form.id)' is already used by \(other)"))
                    continue
                }
                files[form.id] = file
                forms[form.id] = compiled
                ids.append(form.id)
            } catch {
                problems += error.problems
            }
        }
        guard problems.isEmpty else { throw LoadProblems(problems) }
        self.forms = forms
        self.ids = ids
    }
}
