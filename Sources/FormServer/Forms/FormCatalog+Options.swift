import FormModel

extension FormCatalog {
    /// The catalog with the options Swift providers give, each form recompiled so its defaults are
    /// checked against the new options like any descriptor's.
    func applying(_ providers: [String: [String: OptionProvider]]) throws(LoadProblems) -> FormCatalog {
        guard !providers.isEmpty else { return self }
        var problems: [LoadProblem] = []
        var forms = self.forms
        for (id, rows) in providers.sorted(by: { $0.key < $1.key }) {
            guard let form = forms[id]?.form else {
                problems.append(
                    LoadProblem(file: "Swift", path: id, message: "options are provided for an unknown form"))
                continue
            }
            do { forms[id] = try Self.applying(rows, to: form, id: id) } catch { problems += error.problems }
        }
        guard problems.isEmpty else { throw LoadProblems(problems) }
        return FormCatalog(forms: forms, ids: ids)
    }

    /// Form `id` with the options its providers give now, recompiled.
    static func applying(
        _ rows: [String: OptionProvider], to form: Form, id: String
    ) throws(LoadProblems) -> CompiledForm {
        var form = form
        var problems: [LoadProblem] = []
        for (tag, provider) in rows.sorted(by: { $0.key < $1.key }) {
            guard let (s, r) = form.position(of: tag), form.sections[s].rows[r].type.needsOptions else {
                problems.append(
                    LoadProblem(file: "Swift", path: "\(id).\(tag)", message: "no selector row has this tag"))
                continue
            }
            form.sections[s].rows[r].options = provider()
        }
        guard problems.isEmpty else { throw LoadProblems(problems) }
        return try FormCompiler().compile(form, file: "Swift options for \(id)")
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

extension FormCatalog {
    /// The catalog with forms written in Swift added after the folder's, each compiled now. Every
    /// problem of every form is reported, and an id used twice names both places.
    func adding(_ definitions: [FormDefinition]) throws(LoadProblems) -> FormCatalog {
        guard !definitions.isEmpty else { return self }
        var forms = self.forms
        var ids = self.ids
        var problems: [LoadProblem] = []
        for definition in definitions {
            do {
                let compiled = try definition.compiled()
                guard forms[definition.form.id] == nil else {
                    problems.append(
                        LoadProblem(
                            file: definition.file, path: "id",
                            message: "the form id '\(definition.form.id)' is already used by another form served"))
                    continue
                }
                forms[definition.form.id] = compiled
                ids.append(definition.form.id)
            } catch {
                problems += error.problems
            }
        }
        guard problems.isEmpty else { throw LoadProblems(problems) }
        return FormCatalog(forms: forms, ids: ids)
    }
}
