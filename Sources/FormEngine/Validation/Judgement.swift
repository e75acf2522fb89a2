import FormModel

/// The validation pass of one submission: rows that are visible and enabled, in page order, then
/// multivalued sections' items. Collects every error, localised.
struct Judgement {
    let plan: FormPlan
    let messages: Messages
    let rules: Rules
    private(set) var errors: [FieldError] = []

    init(plan: FormPlan, messages: Messages, rules: Rules) {
        self.plan = plan
        self.messages = messages
        self.rules = rules
    }

    /// Rows: a decoding problem stops the row; then `required`, which also stops the row when it fails
    /// (rule 7); empty values pass every other rule. `problems` are the decoding problems, in row order.
    mutating func validateRows(problems: [(row: Int, problem: Problem)], resolution: inout Resolution) {
        let rules = rules  // a copy the reporting closures do not overlap with
        do {
            var nextProblem = problems.startIndex
            for index in plan.rows.indices {
                let decodingProblem: Problem?
                if nextProblem < problems.endIndex, problems[nextProblem].row == index {
                    decodingProblem = problems[nextProblem].problem
                    nextProblem += 1
                } else {
                    decodingProblem = nil
                }
                plan.withRow(index) { rowPlan, compiled in
                    validate(
                        row: index, rowPlan, compiled, decodingProblem: decodingProblem, rules: rules,
                        resolution: &resolution)
                }
            }
        }
    }

    /// One row of `validateRows`.
    private mutating func validate(
        row index: Int, _ rowPlan: RowPlan, _ compiled: CompiledRow, decodingProblem: Problem?, rules: Rules,
        resolution: inout Resolution
    ) {
        // Rules 4 and 5: hidden and disabled rows are not validated.
        guard rowPlan.takesInput, !resolution.rowHidden[index], !resolution.rowDisabled[index],
            !rowPlan.inMultivaluedSection
        else { return }
        // `compiled.row` is read in place each time: a local copy of a `Row` costs a retain per field.
        if let decodingProblem {
            add(decodingProblem, row: index)
            return
        }
        guard let value = resolution.values[index], !value.isEmpty(for: compiled.row.type) else {
            if resolution.rowRequired[index] { add(.required, row: index) }
            return
        }
        // The closure captures the index, not the row: capturing the row would retain it for every row.
        rules.check(compiled, rowPlan, value: value, resolution: &resolution) { problem, message in
            add(problem, row: index, validatorMessage: message)
        }
    }

    /// Multivalued sections that are visible: the limits, each item's decoding, then its validators.
    mutating func validateItems(_ items: [Int: MultivaluedItems], resolution: inout Resolution) {
        let rules = rules  // a copy the reporting closure below does not overlap with
        for section in plan.form.sections {
            guard let tag = section.section.multivaluedTag, let sent = items[section.index], let item = section.item,
                !resolution.sectionHidden[section.index],
                !(section.rows.first.map { resolution.rowDisabled[$0] } ?? false)
            else { continue }
            let name = section.section.title ?? tag
            if let kind = sent.wrongType {
                append(tag: tag, problem: .wrongType(sent: kind), name: name, section: section.index, position: nil)
            }
            if let limit = sent.overRead {
                append(tag: tag, problem: .tooManyItemsSent(limit), name: name, section: section.index, position: nil)
            }
            if let cap = sent.overCap {
                append(tag: tag, problem: .tooManyItems(cap), name: name, section: section.index, position: nil)
            }
            // An item's error names the item as its page labels it ("Tag 2"): with the section's name,
            // every item's message read alike, and the summary's links could not be told apart.
            for (position, problem) in sent.problems {
                appendItem(problem, section: section, tag: tag, position: position)
            }
            for (value, position) in zip(sent.values, sent.positions) where !value.isEmpty(for: item.row.type) {
                rules.check(item, of: section.index, value: value, resolution: &resolution) { problem, message in
                    appendItem(problem, section: section, tag: tag, position: position, message: message)
                }
            }
        }
    }

    /// Puts the errors in the order their fields are on the page, so that the summary and the JSON
    /// list them as a reader meets them: the rows' errors were found first, then the items' of
    /// multivalued sections, wherever those sections are. Within a section, its own errors (too many
    /// items) come before its items', and a field's errors keep their order. A stable sort.
    mutating func putInPageOrder() {
        let plan = plan
        func place(_ error: FieldError) -> (section: Int, field: Int) {
            if let row = error.row { return (plan.form.rows[row].sectionIndex, row) }
            if let section = error.section { return (section, error.position ?? -1) }
            return (Int.max, 0)  // about the whole form: after its fields
        }
        errors = errors.enumerated().sorted { left, right in
            let (a, b) = (place(left.element), place(right.element))
            return a != b ? a < b : left.offset < right.offset
        }.map(\.element)
    }

    /// The error of a submission whose checks spent their budget: about the whole form, in its summary.
    mutating func refuseSpentBudget() {
        let problem = Problem.tooLongToCheck
        append(tag: "", problem: problem, name: plan.form.form.title ?? plan.form.form.id, section: nil, position: nil)
    }

    /// An error on the item at `position` of multivalued `section`, tagged `tag[position]`.
    private mutating func appendItem(
        _ problem: Problem, section: CompiledSection, tag: String, position: Int, message: String? = nil
    ) {
        let text = messages.itemText(for: problem, name: section.itemName(at: position), message: message)
        append(
            tag: "\(tag)[\(position)]", problem: problem, name: "", section: section.index, position: position,
            message: text, language: message == nil ? messages.language(of: problem) : nil)
    }

    private mutating func add(_ problem: Problem, row index: Int, validatorMessage: String? = nil) {
        let row = plan.form.rows[index].row
        var text = validatorMessage ?? messages.text(for: problem, name: row.displayName)
        var language = validatorMessage == nil ? messages.language(of: problem) : nil
        if problem == .required, let custom = row.requireMessage {
            // XLForm formats the row's title into its `requireMsg` (`%@`); `{name}` is the spelling of
            // every other message here. Both name the row.
            // One pass: a title that itself holds `{name}` or `%@` is not replaced in turn.
            text = custom.replacingAll("%@", with: "{name}").replacingAll("{name}", with: row.displayName)
            language = nil
        }
        errors.append(
            FieldError(
                tag: row.tag ?? "", code: problem.code, message: text, row: index, section: nil, position: nil,
                language: language ?? plan.form.form.locale))
    }

    /// `message` replaces the text for `problem`; `language` is its language (nil: the form's).
    private mutating func append(
        tag: String, problem: Problem, name: String, section: Int?, position: Int?, message: String? = nil,
        language: String? = nil
    ) {
        let language = message == nil ? messages.language(of: problem) : language
        errors.append(
            FieldError(
                tag: tag, code: problem.code, message: message ?? messages.text(for: problem, name: name), row: nil,
                section: section, position: position, language: language ?? plan.form.form.locale))
    }
}

extension FormValue {
    /// docs/submissions.md, rule 6: no value, whitespace-only text (passwords excepted), or an empty selection.
    func isEmpty(for type: RowType) -> Bool {
        switch self {
        case .text(let text): type.isSecret ? text.isEmpty : text.looksBlank
        case .options(let chosen): chosen.isEmpty
        // A required checkbox must be checked, as HTML's `required` on a checkbox means.
        case .bool(let flag): !flag
        default: false
        }
    }
}

extension String {
    /// Whether every character is blank (`Unicode.Scalar.looksBlank`); true for "".
    var looksBlank: Bool {
        for scalar in unicodeScalars {
            // Printable ASCII other than space is never blank, and most values start with it: the
            // Unicode property tables need not be asked.
            if (0x21...0x7E).contains(scalar.value) || !scalar.looksBlank { return false }
        }
        return true
    }
}

extension Unicode.Scalar {
    /// Whitespace, or a character that draws nothing (zero-width space and joiners, the Hangul filler,
    /// the blank Braille pattern): a value made only of these is as empty as spaces for `required`.
    var looksBlank: Bool {
        properties.isWhitespace || properties.isDefaultIgnorableCodePoint || value == 0x2800
    }
}
