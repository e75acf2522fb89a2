import Foundation

extension FormDefinition {
    /// A form inferred from a `Decodable` Swift type (TLFormView's forms from a model class): one row per
    /// stored property, in declaration order, titled from its name (`user_name` and `userName` are
    /// "User Name"), its row type from its Swift type, required unless optional (or a `Bool`).
    ///
    /// ```swift
    /// struct Event: Codable {
    ///     enum Repeat: String, Codable, CaseIterable { case never, daily, weekly }
    ///     var title: String                  // text, required
    ///     var startsAt: Date                 // datetime, required
    ///     var guests: Int?                   // integer
    ///     var allDay: Bool                   // booleanSwitch
    ///     var repeats: Repeat                // selectorPush: never, daily, weekly
    ///     var tags: [String]                 // a multivalued section of text items
    /// }
    /// let form = FormDefinition(model: Event.self, id: "event").submitTitle("Add")
    /// // and once a submission is valid: let event = try submission.decode(Event.self)
    /// ```
    ///
    /// `String` is text, `Int` an integer, `Double`, `Float` and `Decimal` decimals, `Bool` a switch,
    /// `Date` a date and time, a `CaseIterable` enum of strings a selector; an array of such an enum is a
    /// multiple selector, an array of anything else a multivalued section. A property of another type
    /// (a nested struct, a dictionary) is one of the definition's `problems`, named with the type.
    public init<Model: Decodable>(model: Model.Type, id: String, title: String? = nil, file: String = #fileID) {
        var problems: [LoadProblem] = []
        var sections: [Section] = []
        do {
            for property in try ModelShape.properties(of: model) {
                if let list = property.type as? any ModelList.Type, Self.options(of: list.elementType) == nil {
                    guard let item = Self.row(for: list.elementType, tag: nil, title: Self.title(of: property.key))
                    else {
                        problems.append(
                            LoadProblem(
                                file: file, path: "\(Model.self).\(property.key)",
                                message:
                                    "the property '\(property.key)' is a list of \(list.elementType), which no row "
                                    + "holds: use a list of String, Int, Double, Decimal, Bool, Date or a CaseIterable enum"
                            ))
                        continue
                    }
                    var section = Section(title: Self.title(of: property.key), rows: [])
                    section.multivaluedTag = property.key
                    section.multivaluedOptions = [.insert, .delete, .reorder]
                    section.rowTemplate = item
                    sections.append(section)
                    continue
                }
                guard var row = Self.row(for: property.type, tag: property.key, title: Self.title(of: property.key))
                else {
                    problems.append(
                        LoadProblem(
                            file: file, path: "\(Model.self).\(property.key)",
                            message:
                                "the property '\(property.key)' is a \(property.type), which no row holds: an enum "
                                + "becomes a selector when it is CaseIterable with String raw values"))
                    continue
                }
                if !property.optional, row.type.valueKind != .bool, row.type.valueKind != .options {
                    row.required = .always
                }
                if sections.last.map({ $0.isMultivalued }) ?? true { sections.append(Section(rows: [])) }
                sections[sections.count - 1].rows.append(row)
            }
        } catch let unsupported as ModelShape.Unsupported {
            problems.append(LoadProblem(file: file, path: "\(Model.self)", message: unsupported.message))
        } catch {
            problems.append(LoadProblem(file: file, path: "\(Model.self)", message: "\(error)"))
        }
        self.init(form: Form(id: id, title: title, sections: sections), problems: problems, file: file)
    }

    /// The row a property of Swift type `type` becomes, or nil for a type no row holds.
    static func row(for type: Any.Type, tag: String?, title: String) -> Row? {
        let rowType: RowType
        var options: [Option] = []
        if let scalar = ModelShape.scalar(type) {
            rowType = scalar.row
        } else if let list = type as? any ModelList.Type {
            guard let choices = Self.options(of: list.elementType) else { return nil }
            rowType = .multipleSelector
            options = choices
        } else {
            guard let choices = Self.options(of: type) else { return nil }
            rowType = .selectorPush
            options = choices
        }
        var row = Row(rowType, tag: tag, title: title)
        row.options = options
        return row
    }

    /// The options of a `CaseIterable` enum with `String` raw values: each case's raw value, titled as
    /// properties are. Nil for any other type: an option's value must decode back into the case.
    static func options(of type: Any.Type) -> [Option]? {
        guard let choices = type as? any CaseIterable.Type, let values = Self.cases(of: choices) else { return nil }
        return values.map { Option($0, title: title(of: $0)) }
    }

    private static func cases<C: CaseIterable>(of type: C.Type) -> [String]? {
        let values = C.allCases.compactMap { ($0 as? any RawRepresentable)?.rawValue as? String }
        return values.count == C.allCases.count && !values.isEmpty ? values : nil
    }

    /// A property's name as a title: words split at `_`, `-` and where a lower-case letter meets an
    /// upper-case one, each word capitalised (`user_name` and `userName` → "User Name", `url` → "Url").
    static func title(of name: String) -> String {
        var words: [String] = []
        var word = ""
        var previous: Character?
        for character in name {
            if character == "_" || character == "-" || character == " " {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else if character.isUppercase, let before = previous, before.isLowercase || before.isNumber {
                words.append(word)
                word = String(character)
            } else {
                word.append(character)
            }
            previous = character
        }
        if !word.isEmpty { words.append(word) }
        return words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }
}
