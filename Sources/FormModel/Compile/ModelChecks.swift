import Foundation

/// The checks of a form's settings that do not depend on how it was written: a descriptor file and a
/// form built with the Swift DSL get the same ones. (The loader also reports the problems it can see
/// while reading text, with a line and column; `FormLoader` drops the repeats.)
struct ModelChecks {
    let form: Form
    private(set) var problems: [(path: String, message: String)] = []

    init(form: Form) {
        self.form = form
        check()
    }

    private mutating func add(_ path: String, _ message: String) { problems.append((path, message)) }

    private mutating func check() {
        // The id's spelling is checked where ids become URLs (the loader, the DSL's `compiled()`), not
        // here: the renderer's escaping is tested with hostile ids, which must still compile.
        if let redirect = form.successRedirect, let problem = Self.linkProblem(redirect) {
            add("successRedirect", problem)
        }
        if TimeZone(identifier: form.timeZone) == nil {
            add("timeZone", "unknown time zone '\(form.timeZone)' (use an IANA name such as Europe/Paris)")
        }
        for problem in Self.htmlProblems(of: form) { add(problem.path, problem.message) }
        for problem in Self.deliveryProblems(of: form) { add(problem.path, problem.message) }
        for problem in Self.layoutProblems(of: form) { add(problem.path, problem.message) }
        for (s, section) in form.sections.enumerated() {
            let path = "sections[\(s)]"
            if section.multivaluedTag == nil, section.rowTemplate != nil || !section.multivaluedOptions.isEmpty {
                add(path, "multivaluedOptions and rowTemplate need a multivaluedTag")
            }
            if section.multivaluedTag != nil, section.multivaluedOptions.contains(.insert), section.rowTemplate == nil {
                add(path, "a multivalued section that allows insert needs a rowTemplate")
            }
            if let maxRows = section.maxRows, maxRows < 1 { add(path + ".maxRows", "expected at least 1") }
            if let maxRows = section.maxRows, section.isMultivalued, section.rows.count > maxRows {
                add(
                    path + ".maxRows",
                    "the section starts with \(section.rows.count) items but takes at most \(maxRows): "
                        + "its own starting values could not be sent back")
            }
            if let template = section.rowTemplate { check(template, at: path + ".rowTemplate") }
            if section.isMultivalued {
                // The items of a list are judged together: a predicate on one row of it has no single answer.
                let rows = section.rows.enumerated().map { ($1, "\(path).rows[\($0)]") }
                for (row, rowPath) in rows + (section.rowTemplate.map { [($0, path + ".rowTemplate")] } ?? []) {
                    for (key, condition) in [
                        ("hidden", row.hidden), ("disabled", row.disabled), ("required", row.required),
                    ]
                    where { if case .predicate = condition { return true } else { return false } }() {
                        // Only hiding has a section-level condition to move to; sections have no `disabled`
                        // or `required` of their own.
                        let instead =
                            key == "hidden"
                            ? "put the condition on the section's hidden"
                            : "its items share one state: write true or false"
                        add(
                            "\(rowPath).\(key)",
                            "a multivalued section's rows cannot have a \(key) predicate; \(instead)")
                    }
                }
            }
            for (r, row) in section.rows.enumerated() { check(row, at: "\(path).rows[\(r)]") }
        }
    }

    private mutating func check(_ row: Row, at path: String) {
        if let source = row.optionsFrom {
            if row.type.valueKind != .option {
                add(
                    path + ".optionsFrom",
                    "options from '\(source)' are searched one choice at a time: they fit a single selector "
                        + "(selectorPush), not \(ConstantComparisonChecks.article(row.type.name)) row")
            } else if !row.options.isEmpty {
                add(path + ".optionsFrom", "a row takes its options from its list or from '\(source)', not both")
            }
        } else if row.type.needsOptions && row.options.isEmpty {
            add(path + ".options", "a \(row.type.name) row needs options")
        }
        var seen = Set<String>()
        for option in row.options where !seen.insert(option.value).inserted {
            add(path + ".options", "the option value '\(option.value)' appears twice")
        }
        if !row.type.takesInput, row.required != .never {
            add(path + ".required", "a \(row.type.name) row takes no input, so it cannot be required")
        }
        for problem in Self.fitProblems(of: row, at: path) { add(problem.path, problem.message) }
        for problem in Self.htmlProblems(of: row, at: path) { add(problem.path, problem.message) }
        guard let value = row.value else { return }
        let kind = row.type.valueKind
        guard value.fits(kind) else {
            add(path + ".value", "the value '\(value)' does not fit a \(row.type.name) row")
            return
        }
        let keys: [String]
        switch value {
        case .option(let key): keys = [key]
        case .options(let chosen): keys = chosen
        default: keys = []
        }
        // A source's options are not known at load: its default is taken as written.
        for key in keys where row.optionsFrom == nil && !row.options.contains(where: { $0.value == key }) {
            add(path + ".value", "the value '\(key)' is not among the options")
        }
    }
}
