import FormPredicate

/// Checks a loaded `Form` as a whole and compiles it: duplicate tags, predicate syntax (with the
/// column), references to unknown tags, dependency cycles (printed as a path), regex syntax.
public struct FormCompiler: Sendable {
    /// A compiler; it holds no state.
    public init() {}

    /// Compiles `form`, or throws every problem found, each naming `file` and the place in it.
    public func compile(_ form: Form, file: String) throws(LoadProblems) -> CompiledForm {
        let form = form.readingDateTimesInItsZone()
        var context = CompilationContext(form: form, file: file)
        for (path, message) in ModelChecks(form: form).problems { context.problem(path, message) }
        context.collectNames()
        let sections = context.compileSections()
        let rows = context.compileRows()
        context.linkFacts(rows: rows, sections: sections)
        // Ordered even when other problems were found, so a cycle is reported in the same run.
        switch context.graph.ordered() {
        case .success(let order):
            guard context.problems.isEmpty else { throw LoadProblems(context.problems) }
            return CompiledForm(form: form, rows: rows, sections: sections, order: order, rowIndex: context.rowIndex)
        case .failure(let found):
            // Every cycle, each once; past a hundred the rest are counted, so a hostile form's report stays short.
            let shown = 100
            var problems = found.cycles.prefix(shown).map { cycle in
                let text = cycle.map { context.describe($0) }.joined(separator: " → ")
                return LoadProblem(file: file, path: "", message: "dependency cycle: \(text)")
            }
            if found.cycles.count > shown {
                problems.append(
                    LoadProblem(
                        file: file, path: "",
                        message:
                            "\(found.cycles.count - shown) more dependency cycles: break those above and check again"
                    ))
            }
            throw LoadProblems(context.problems + problems)
        }
    }
}

/// The state of one compilation.
private struct CompilationContext {
    let form: Form
    let file: String
    var problems: [LoadProblem] = []
    var rowIndex: [String: Int] = [:]
    var sectionIndex: [String: Int] = [:]
    var multivaluedSection: [String: Int] = [:]
    var graph = DependencyGraph()
    private var rowPaths: [String] = []
    private var rowSections: [Int] = []
    /// The form's rows in order (`Form.allRows`), laid out once: a condition reads them by index, and
    /// building them per condition made a form's compilation grow with the square of its rows.
    private let rows: [Row]
    /// How every condition's predicate is parsed: the form's tags, sorted once (`collectNames`).
    private var parseOptions = PredicateParseOptions()
    /// Every name a condition may read with `$`: rows', sections' and multivalued sections' tags.
    private var names: Set<String> = []

    init(form: Form, file: String) {
        self.form = form
        self.file = file
        rows = form.allRows.map(\.value)
    }

    mutating func problem(_ path: String, _ message: String) {
        problems.append(LoadProblem(file: file, path: path, message: message))
    }

    /// Indexes every tag, reporting duplicates across rows, sections and multivalued tags.
    mutating func collectNames() {
        var owner: [String: String] = [:]
        func claim(_ tag: String, _ path: String, _ problems: inout [LoadProblem], _ file: String) -> Bool {
            // Form posts carry these fields of the server's own (the CSRF token, "add another", the
            // version of the stored record edited).
            if tag == "_csrf" || tag == "_add" || tag == "_version" || tag.hasPrefix("_held.") {
                problems.append(LoadProblem(file: file, path: path, message: "the tag '\(tag)' is reserved"))
                return false
            }
            // A tag is a field's name and a JSON key: a control character in it (C0, DEL or C1) is never
            // meant, and a browser could not send it back as written.
            if let control = tag.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
                let shown = tag.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : String($0) }
                let hex = String(control.value, radix: 16, uppercase: true)
                let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                let message = "the tag '\(shown.joined())' contains a control character (\(code))"
                problems.append(LoadProblem(file: file, path: path, message: message))
                return false
            }
            if let first = owner[tag] {
                problems.append(
                    LoadProblem(file: file, path: path, message: "duplicate tag '\(tag)' (first used at \(first))"))
                return false
            }
            owner[tag] = path
            return true
        }
        var index = 0
        for (s, section) in form.sections.enumerated() {
            if let tag = section.tag, claim(tag, "sections[\(s)].tag", &problems, file) { sectionIndex[tag] = s }
            if let tag = section.multivaluedTag, claim(tag, "sections[\(s)].multivaluedTag", &problems, file) {
                multivaluedSection[tag] = s
            }
            for (r, row) in section.rows.enumerated() {
                let path = "sections[\(s)].rows[\(r)]"
                rowPaths.append(path)
                rowSections.append(s)
                // Rows of a multivalued section repeat: they are read together through the multivalued tag.
                if let tag = row.tag, !section.isMultivalued, claim(tag, path + ".tag", &problems, file) {
                    rowIndex[tag] = index
                }
                if row.tag == nil, row.type.takesInput, !section.isMultivalued {
                    problem(path, "a \(row.type.name) row needs a tag to carry its value")
                }
                index += 1
            }
        }
        names = Set(rowIndex.keys).union(sectionIndex.keys).union(multivaluedSection.keys)
        parseOptions = .form(tags: names)
    }

    /// Parses `condition` and binds each variable to the fact it reads.
    mutating func compile(_ condition: Condition, at path: String) -> CompiledCondition {
        guard case .predicate(let source) = condition else {
            if case .constant(let flag) = condition { return .constant(flag) }
            return .constant(false)
        }
        let predicate: Predicate
        do {
            predicate = try Predicate(source, options: parseOptions)
        } catch {
            problem(path, "\(error.message) at column \(error.column) in '\(source)'")
            return .constant(false)
        }
        var bindings: [FormFact] = []
        for variable in predicate.variables {
            guard let fact = fact(for: variable, at: path, in: source) else { return .constant(false) }
            bindings.append(fact)
        }
        let rows = self.rows
        let problems = ConstantComparisonChecks.problems(of: predicate) { index in
            guard case .rowValue(let row) = bindings[index] else { return nil }
            return (
                rows[row].type.valueKind, rows[row].type.name, predicate.variables[index].name, rows[row].options
            )
        }
        for message in problems { problem(path, message) }
        let bare = BareWordChecks.problems(of: predicate, names: names) { index in
            guard case .rowValue(let row) = bindings[index] else { return nil }
            return (predicate.variables[index].name, rows[row].options)
        }
        for message in bare { problem(path, message) }
        return .predicate(readingDateTimeLiterals(predicate, bindings: bindings, at: path), bindings: bindings)
    }

    /// `predicate` with each literal compared with a date-time row (or a list of them) read as the
    /// instant it names, in UTC, as conditions read the row: an author writes
    /// `$starts >= '2026-11-23T09:00'` as the form's clock shows it. A literal without an offset is the
    /// form zone's wall-clock time, as a submitted one is; `''` stays as written.
    private mutating func readingDateTimeLiterals(
        _ predicate: Predicate, bindings: [FormFact], at path: String
    ) -> Predicate {
        let dateTimes = Set(bindings.indices.filter { readsDateTimes(bindings[$0]) })
        // An unknown zone is reported by `ModelChecks`.
        guard !dateTimes.isEmpty, let offsetAt = form.zoneOffsets() else { return predicate }
        let (rewritten, unreadable) = predicate.rewritingLiterals(comparedWith: dateTimes) { text in
            if text.isEmpty { return text }
            guard case .instant(let instant) = OffsetDateTime.read(text, offsetAt: offsetAt) else { return nil }
            return instant.utc?.description
        }
        for text in unreadable {
            problem(
                path,
                "'\(text)' is compared with a date-time but is not one the time zone \(form.timeZone) has: write "
                    + "YYYY-MM-DDTHH:MM[:SS] (the form's clock) or add an offset, in '\(predicate.source)'")
        }
        return rewritten
    }

    /// Whether `fact` reads date-times: a date-time row's value, or a multivalued section's of them.
    private func readsDateTimes(_ fact: FormFact) -> Bool {
        switch fact {
        case .rowValue(let row):
            return rows[row].type.valueKind == .dateTime
        case .sectionValue(let index):
            let section = form.sections[index]
            return (section.rowTemplate ?? section.rows.first)?.type.valueKind == .dateTime
        default:
            return false
        }
    }

    private mutating func fact(for variable: PredicateVariable, at path: String, in source: String) -> FormFact? {
        if let row = rowIndex[variable.name] {
            switch variable.attribute {
            case .value: return .rowValue(row)
            case .isHidden: return .rowHidden(row)
            case .isDisabled: return .rowDisabled(row)
            }
        }
        if let section = sectionIndex[variable.name] ?? multivaluedSection[variable.name] {
            if variable.attribute == .isHidden { return .sectionHidden(section) }
            if variable.attribute == .value, let multivalued = multivaluedSection[variable.name] {
                return .sectionValue(multivalued)
            }
            problem(
                path, "'$\(variable.name)' is a section: only $\(variable.name).isHidden can be read, in '\(source)'")
            return nil
        }
        var message = "unknown tag '\(variable.name)' in '\(source)'"
        if let close = closestName(to: variable.name, among: names) { message += " (did you mean '\(close)'?)" }
        problem(path, message)
        return nil
    }

    mutating func compileSections() -> [CompiledSection] {
        var start = 0
        return form.sections.enumerated().map { index, section in
            let hidden = compile(section.hidden, at: "sections[\(index)].hidden")
            defer { start += section.rows.count }
            return CompiledSection(
                index: index, section: section, hidden: hidden, rows: start..<(start + section.rows.count),
                item: compileItem(of: section, at: "sections[\(index)]"))
        }
    }

    /// The row every value of a multivalued section is decoded and validated as: its template, or its
    /// first row when it has none.
    private mutating func compileItem(of section: Section, at path: String) -> CompiledItem? {
        guard section.isMultivalued else { return nil }
        let (row, rowPath) =
            section.rowTemplate.map { ($0, path + ".rowTemplate") } ?? section.rows.first.map {
                ($0, path + ".rows[0]")
            }
            ?? (nil, path)
        guard let row else {
            problem(path, "a multivalued section needs a rowTemplate or a first row to give its values a type")
            return nil
        }
        guard row.type.takesInput, row.type.valueKind != .file else {
            problem(rowPath + ".type", "a multivalued section cannot collect \(row.type.name) rows")
            return nil
        }
        // Items post one value each under the multivalued tag, read back by position. A set of choices
        // per item would post zero or several values, and nothing would say which item they belong to.
        if let source = row.optionsFrom {
            problem(
                rowPath + ".optionsFrom",
                "a multivalued section's items cannot search '\(source)': each item is one control posting one "
                    + "value, with no room for a search; use a selector row outside the section")
            return nil
        }
        guard row.type.valueKind != .options else {
            let tag = section.multivaluedTag ?? ""
            problem(
                rowPath + ".type",
                "the multivalued section '\(tag)' cannot collect \(row.type.name) items: each item posts one "
                    + "value under '\(tag)', in order, and a set of choices per item would lose which item each "
                    + "choice belongs to; use a single selector, or a multipleSelector row outside the section")
            return nil
        }
        let validators = row.validators.enumerated().map {
            compileValidator($1, row: row, at: "\(rowPath).validators[\($0)]")
        }
        return CompiledItem(row: row, validators: validators)
    }

    mutating func compileRows() -> [CompiledRow] {
        form.allRows.enumerated().map { index, entry in
            let path = rowPaths[index]
            var row = entry.value
            // A multiple selection left at its default is empty, as one posted empty is, not null.
            if row.type.valueKind == .options, row.value == nil { row.value = .options([]) }
            checkAutocomplete(row, at: path + ".autocomplete")
            let disabled =
                form.disabled ? CompiledCondition.constant(true) : compile(row.disabled, at: path + ".disabled")
            return CompiledRow(
                index: index, sectionIndex: entry.section, row: row, path: path,
                hidden: compile(row.hidden, at: path + ".hidden"), disabled: disabled,
                required: compile(row.required, at: path + ".required"),
                validators: row.validators.enumerated().map {
                    compileValidator($1, row: row, at: "\(path).validators[\($0)]")
                })
        }
    }

    /// A form written in Swift sets `autocomplete` without the loader's checks: the same ones, here.
    private mutating func checkAutocomplete(_ row: Row, at path: String) {
        if let autocomplete = row.autocomplete, let message = Autofill.problem(in: autocomplete, for: row.type) {
            problem(path, message)
        }
    }

    private mutating func compileValidator(_ spec: ValidatorSpec, row: Row, at path: String) -> CompiledValidator {
        var condition: CompiledCondition?
        var regex: SafeRegex?
        var otherRow: Int?
        switch spec.kind {
        case .predicate(let source):
            condition = compile(.predicate(source), at: path + ".predicate")
        case .regex(let pattern):
            do { regex = try SafeRegex(pattern) } catch {
                problem(path + ".pattern", "invalid regular expression: \(error)")
            }
        case .equalsRow(let tag):
            otherRow = rowIndex[tag]
            if otherRow == nil { problem(path + ".row", "unknown tag '\(tag)'") }
        case .min(let bound), .max(let bound):
            // On text and multiple-choice rows a bound is a length or a count, as the loader reads it.
            let countable = [.text, .options].contains(row.type.valueKind) && bound.fits(.integer)
            if !bound.fits(row.type.valueKind), !countable {
                problem(path + ".value", "the bound '\(bound)' does not fit a \(row.type.name) row")
            }
        case .email, .url, .minLength, .maxLength, .custom:
            break
        }
        return CompiledValidator(spec: spec, condition: condition, regex: regex, otherRow: otherRow)
    }

    /// Adds every fact and what it reads. Required and validator predicates read facts but feed none,
    /// so they are checked for unknown tags above and run after everything else.
    mutating func linkFacts(rows: [CompiledRow], sections: [CompiledSection]) {
        for section in sections {
            graph.add(.sectionHidden(section.index))
            for read in section.hidden.reads { graph.add(.sectionHidden(section.index), reads: read) }
            // A multivalued section's array is empty to conditions while the section is hidden.
            if section.section.isMultivalued {
                graph.add(.sectionValue(section.index), reads: .sectionHidden(section.index))
            }
        }
        for row in rows {
            graph.add(.rowHidden(row.index), reads: .sectionHidden(row.sectionIndex))
            for read in row.hidden.reads { graph.add(.rowHidden(row.index), reads: read) }
            graph.add(.rowDisabled(row.index))
            for read in row.disabled.reads { graph.add(.rowDisabled(row.index), reads: read) }
            // A value shown to conditions depends on whether the row is disabled (the server's value
            // wins) and, when hidden rows are cleared, on whether it is hidden (then it is null).
            graph.add(.rowValue(row.index), reads: .rowDisabled(row.index))
            if form.hiddenValues == .clear { graph.add(.rowValue(row.index), reads: .rowHidden(row.index)) }
        }
    }

    /// `alert.hidden`, `all-day.value`, `section 'details'.hidden`: a fact as a form author reads it.
    func describe(_ fact: FormFact) -> String {
        func rowName(_ index: Int) -> String {
            rows[index].tag ?? rowPaths[index]
        }
        switch fact {
        case .rowHidden(let index): return "\(rowName(index)).hidden"
        case .rowDisabled(let index): return "\(rowName(index)).disabled"
        case .rowValue(let index): return "\(rowName(index)).value"
        case .sectionHidden(let index): return "\(form.sections[index].tag ?? "sections[\(index)]").hidden"
        case .sectionValue(let index): return "\(form.sections[index].multivaluedTag ?? "sections[\(index)]").value"
        }
    }
}
