import FormEngine
import FormModel

/// A form as the JSON descriptor `GET /forms/{id}.json` serves: the same keys `Forms/*.json` uses, so
/// an API client (or the loader) reads it back into the same `Form`.
enum DescriptorJSON {
    /// The descriptor of `form`.
    static func json(_ form: Form) -> JSONValue {
        var pairs: [(String, JSONValue)] = [("id", .string(form.id))]
        pairs.optional("title", form.title.map(JSONValue.string))
        pairs.optional("submitTitle", form.submitTitle.map(JSONValue.string))
        if form.disabled { pairs.append(("disabled", .bool(true))) }
        if !form.addAsteriskToRequiredRowsTitle { pairs.append(("addAsteriskToRequiredRowsTitle", .bool(false))) }
        pairs.append(("locale", .string(form.locale)))
        pairs.append(("timeZone", .string(form.timeZone)))
        pairs.append(("hiddenValues", .string(form.hiddenValues.rawValue)))
        pairs.optional("successRedirect", form.successRedirect.map(JSONValue.string))
        if form.editable { pairs.append(("editable", .bool(true))) }
        if !form.messages.isEmpty {
            pairs.append(
                (
                    "messages",
                    .object(
                        form.messages.sorted { $0.key < $1.key }.map { locale, texts in
                            (locale, .object(texts.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
                        })
                ))
        }
        if form.layout != Layout() {
            pairs.append(
                (
                    "layout",
                    .object([
                        ("lines", .array(form.layout.lines.map { .array($0.map(JSONValue.string)) })),
                        ("help", .string(form.layout.help.rawValue)),
                    ])
                ))
        }
        pairs.append(("sections", .array(form.sections.map(section))))
        return .object(pairs)
    }

    private static func section(_ section: Section) -> JSONValue {
        var pairs: [(String, JSONValue)] = []
        pairs.optional("tag", section.tag.map(JSONValue.string))
        pairs.optional("title", section.title.map(JSONValue.string))
        pairs.optional("footer", section.footer.map(JSONValue.string))
        pairs.condition("hidden", section.hidden)
        if let tag = section.multivaluedTag {
            pairs.append(("multivaluedTag", .string(tag)))
            let names: [(Section.MultivaluedOptions, String)] = [
                (.insert, "insert"), (.delete, "delete"), (.reorder, "reorder"),
            ]
            let chosen = names.filter { section.multivaluedOptions.contains($0.0) }.map { JSONValue.string($0.1) }
            pairs.append(("multivaluedOptions", .array(chosen)))
            pairs.append(("insertMode", .string(section.insertMode.rawValue)))
            pairs.optional("rowTemplate", section.rowTemplate.map(row))
            pairs.optional("maxRows", section.maxRows.map(JSONValue.integer))
        }
        pairs.append(("rows", .array(section.rows.map(row))))
        return .object(pairs)
    }

    private static func row(_ row: Row) -> JSONValue {
        var pairs: [(String, JSONValue)] = []
        pairs.optional("tag", row.tag.map(JSONValue.string))
        pairs.append(("type", .string(row.type.name)))
        pairs.optional("title", row.title.map(JSONValue.string))
        pairs.optional("value", row.value.map(value))
        pairs.optional("placeholder", row.placeholder.map(JSONValue.string))
        pairs.optional("autocomplete", row.autocomplete.map(JSONValue.string))
        pairs.optional("store", row.store ? nil : JSONValue.bool(false))
        pairs.condition("required", row.required)
        pairs.optional("requireMsg", row.requireMessage.map(JSONValue.string))
        pairs.optional("optionsFrom", row.optionsFrom.map(JSONValue.string))
        pairs.condition("hidden", row.hidden)
        pairs.condition("disabled", row.disabled)
        if !row.options.isEmpty {
            pairs.append(
                (
                    "options",
                    .array(row.options.map { .object([("value", .string($0.value)), ("title", .string($0.title))]) })
                ))
        }
        pairs.optional("noValueDisplayText", row.noValueDisplayText.map(JSONValue.string))
        pairs.optional("help", row.help.map(JSONValue.string))
        pairs.optional("min", row.min.map(value))
        pairs.optional("max", row.max.map(value))
        pairs.optional("step", row.step.map(value))
        pairs.optional("maxLength", row.maxLength.map(JSONValue.integer))
        pairs.optional("url", row.url.map(JSONValue.string))
        if !row.accept.isEmpty { pairs.append(("accept", .array(row.accept.map(JSONValue.string)))) }
        if !row.validators.isEmpty { pairs.append(("validators", .array(row.validators.map(validator)))) }
        return .object(pairs)
    }

    private static func validator(_ spec: ValidatorSpec) -> JSONValue {
        var pairs: [(String, JSONValue)] = [("kind", .string(spec.kindName))]
        switch spec.kind {
        case .regex(let pattern): pairs.append(("pattern", .string(pattern)))
        case .url(let schemes): pairs.append(("schemes", .array(schemes.map(JSONValue.string))))
        case .minLength(let length), .maxLength(let length): pairs.append(("value", .integer(length)))
        case .min(let bound), .max(let bound): pairs.append(("value", value(bound)))
        case .equalsRow(let tag): pairs.append(("row", .string(tag)))
        case .predicate(let source): pairs.append(("predicate", .string(source)))
        case .custom(let name): pairs.append(("name", .string(name)))
        case .email: break
        }
        pairs.optional("message", spec.message.map(JSONValue.string))
        return .object(pairs)
    }

    private static func value(_ value: FormValue) -> JSONValue {
        switch value {
        case .integer(let number), .duration(let number): .integer(number)
        case .decimal(let number): .number("\(number)")
        case .bool(let flag): .bool(flag)
        case .options(let values): .array(values.map(JSONValue.string))
        default: .string(value.description)
        }
    }
}

extension [(String, JSONValue)] {
    fileprivate mutating func optional(_ key: String, _ value: JSONValue?) {
        if let value { append((key, value)) }
    }

    /// A condition as the descriptor writes it: `true`/`false` or the predicate's text; the default
    /// (never) is left out.
    fileprivate mutating func condition(_ key: String, _ condition: Condition) {
        switch condition {
        case .constant(false): return
        case .constant(true): append((key, .bool(true)))
        case .predicate(let source): append((key, .string(source)))
        }
    }
}
