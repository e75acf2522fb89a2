import FormModel

extension FormEngine {
    /// `verdict` with the application's own refusals added, each with code `refused`: what its Swift
    /// handler found wrong with a submission the form's rules accept (a user name already taken, a
    /// booking already made). The result answers exactly as an invalid submission does.
    ///
    /// A refusal's `tag` names what a submission's errors name:
    /// - a row's tag: the error is shown beside that row;
    /// - a `multivaluedTag`: the error is about the list as a whole;
    /// - `multivaluedTag[n]`: the error is about value `n` (from 0) of that list in `httpParameters`. It
    ///   is tagged with the position the item was sent at, as the server's own item errors are (empty
    ///   items are dropped from the payload, not from the page), and its message names the item.
    ///
    /// A disabled row or list keeps its tag, but the error is said in the summary only: the page script
    /// puts a disabled field's inline error away, where the reader could not act on it.
    ///
    /// Anything else — an unknown tag, an empty one, a row or list that is hidden, a row of a list —
    /// has no field to stand beside: it is an error about the whole form, shown in the page's summary,
    /// and tagged `""` for JSON clients (a hidden row's keeps its tag). `language` is the language of
    /// the messages (nil: the form's `locale`, as for a validator's own `message`).
    ///
    /// ```swift
    /// let refused = engine.refusing(verdict, [(tag: "username", message: "The user name 'grace' is taken")])
    /// refused.isValid          // false
    /// refused.errorsJSON       // {"errors": [{"tag": "username", "message": "…", "code": "refused"}]}
    /// ```
    public func refusing(
        _ verdict: Verdict, _ refusals: [(tag: String, message: String)], language: String? = nil
    ) -> Verdict {
        var refused = verdict
        // Refusing nothing in particular still refuses: the form as a whole "is not valid".
        for (tag, message) in refusals.isEmpty ? [(tag: "", message: "")] : refusals {
            refused.errors.append(refusal(tag: tag, message: message, verdict: verdict, language: language))
        }
        return refused
    }

    /// The error for one refusal (see `refusing`).
    private func refusal(tag: String, message: String, verdict: Verdict, language: String?) -> FieldError {
        let messages = messages(for: verdict.locale)
        func error(_ tag: String, row: Int? = nil, section: Int? = nil, position: Int? = nil) -> FieldError {
            let name =
                if let row { form.rows[row].row.displayName } else if let section, let position {
                    form.sections[section].itemName(at: position)
                } else if let section { form.sections[section].itemTitle } else { form.form.title ?? form.form.id }
            let problem = Problem.custom(name: Self.refusedCode, message: "")
            // A refusal without words gets the built-in "{name} is not valid", in the reader's language.
            guard !message.allSatisfy(\.isWhitespace) else {
                return FieldError(
                    tag: tag, code: Self.refusedCode, message: messages.text(for: problem, name: name), row: row,
                    section: section, position: position, language: messages.language(of: problem) ?? form.form.locale)
            }
            // An item's error names the item, as a validator's own message on an item does.
            let text = position == nil ? message : messages.itemText(for: problem, name: name, message: message)
            return FieldError(
                tag: tag, code: Self.refusedCode, message: text, row: row, section: section, position: position,
                language: language ?? form.form.locale)
        }
        if let index = form.rowIndex[tag] {
            let row = form.rows[index]
            // A row of a list has no field of its own once the list's items are posted.
            guard !form.sections[row.sectionIndex].section.isMultivalued else { return error("") }
            // A hidden row is not on the page for the error to stand beside, and the page script puts a
            // disabled row's error away (the reader cannot act on it there): the summary says it.
            return verdict.rowHidden[index] || verdict.rowDisabled[index] ? error(tag) : error(tag, row: index)
        }
        if let section = form.sections.first(where: { $0.section.multivaluedTag == tag }) {
            let away = verdict.sectionHidden[section.index] || Self.isDisabled(section, in: verdict)
            return away ? error(tag) : error(tag, section: section.index)
        }
        if let (list, value) = Self.item(in: tag),
            let section = form.sections.first(where: { $0.section.multivaluedTag == list }),
            !verdict.sectionHidden[section.index], !Self.isDisabled(section, in: verdict),
            let positions = verdict.itemPositions[section.index], positions.indices.contains(value)
        {
            let position = positions[value]
            return error("\(list)[\(position)]", section: section.index, position: position)
        }
        return error("")
    }

    /// Whether a list is disabled: its items are, together with its first row (FormHTML draws them so).
    private static func isDisabled(_ section: CompiledSection, in verdict: Verdict) -> Bool {
        section.rows.first.map { verdict.rowDisabled[$0] } ?? false
    }

    /// The code of the application's refusals.
    static let refusedCode = "refused"

    /// `("devices", 2)` for `devices[2]`; nil for anything else.
    private static func item(in tag: String) -> (list: String, value: Int)? {
        guard tag.hasSuffix("]"), let open = tag.lastIndex(of: "[") else { return nil }
        let digits = tag[tag.index(after: open)..<tag.index(before: tag.endIndex)]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits), value >= 0
        else { return nil }
        return (String(tag[..<open]), value)
    }
}
