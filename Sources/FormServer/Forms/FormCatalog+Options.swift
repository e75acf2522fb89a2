import FormModel

extension FormCatalog {
    /// The catalog with the options Swift providers give, each form recompiled so its defaults are
    /// checked against the new options like any descriptor's.
    func applying(_ providers: [String: [String: OptionProvider]]) throws(LoadProblems) -> FormCatalog {
        guard !providers.isEmpty else { return self }
        var problems: [LoadProblem] = []
        var forms = self.forms
        for (id, rows) in providers.sorted(by: { $0.key < $1.key }) {
            guard var form = forms[id]?.form else {
                problems.append(
                    LoadProblem(file: "Swift", path: id, message: "options are provided for an unknown form"))
                continue
            }
            for (tag, provider) in rows {
                guard let (s, r) = form.position(of: tag), form.sections[s].rows[r].type.needsOptions else {
                    problems.append(
                        LoadProblem(file: "Swift", path: "\(id).\(tag)", message: "no selector row has this tag"))
                    continue
                }
                form.sections[s].rows[r].options = provider()
            }
            do { forms[id] = try FormCompiler().compile(form, file: "Swift options for \(id)") } catch {
                problems += error.problems
            }
        }
        guard problems.isEmpty else { throw LoadProblems(problems) }
        return FormCatalog(forms: forms, ids: ids)
    }
}

extension Form {
    /// The section and row index of the row tagged `tag`.
    func position(of tag: String) -> (Int, Int)? {
        for (s, section) in sections.enumerated() {
            if let r = section.rows.firstIndex(where: { $0.tag == tag }) { return (s, r) }
        }
        return nil
    }
}
