import Foundation

/// Turns a descriptor tree into a `Form`, logging every problem it meets and going on, so one
/// pass reports them all. Checks that need the whole form (tags, conditions, cycles) come later,
/// in `FormCompiler`.
struct DescriptorDecoder {
    let log: ProblemLog
    /// The row types a descriptor may name.
    let rowTypes: RowTypes
    /// The form's time zone, once read: descriptor date-times are read in it.
    var zone = TimeZone(secondsFromGMT: 0)!

    func form(_ node: DescriptorNode, defaultID: String) -> Form? {
        guard var reader = ObjectReader(node, path: "", log: log) else { return nil }
        var form = Form(id: reader.string("id") ?? defaultID)
        form.title = reader.string("title")
        form.disabled = reader.bool("disabled") ?? false
        form.addAsteriskToRequiredRowsTitle = reader.bool("addAsteriskToRequiredRowsTitle") ?? true
        form.submitTitle = reader.string("submitTitle")
        form.locale = reader.string("locale") ?? "en"
        form.timeZone = reader.string("timeZone") ?? "UTC"
        var rows = self
        if let zone = TimeZone(identifier: form.timeZone) {
            rows.zone = zone
        } else {
            log.add(
                reader.path("timeZone"), "unknown time zone '\(form.timeZone)' (use an IANA name such as Europe/Paris)",
                at: reader.node("timeZone"))
        }
        if let mode = reader.choice("hiddenValues", as: Form.HiddenValues.self, expected: "'clear' or 'keep'") {
            form.hiddenValues = mode
        }
        form.successRedirect = reader.string("successRedirect")
        form.editable = reader.bool("editable") ?? false
        form.deliveries = deliveries(&reader)
        form.layout = layout(&reader)
        form.messages = messages(&reader)
        if form.id.isEmpty || !form.id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) {
            log.add(
                reader.path("id"), "a form id is letters, digits, '-' and '_' only, found '\(form.id)'",
                at: reader.node("id"))
        }
        if let sections = reader.list("sections") {
            // A section or row that cannot be read keeps its place as an inert stand-in, so the whole-form
            // checks that follow still run and still name the right indexes.
            form.sections = sections.map { rows.section($0.node, path: $0.path) ?? Section() }
        } else {
            log.add("sections", "a form needs a list of sections", at: node)
        }
        reader.finish()
        return form
    }

    /// `layout`: `lines`, a list of lists of row tags, and `help`, `shown` or `toggle`. Whether the tags
    /// name rows that can share a line is checked with the rest of the form (`ModelChecks`).
    private func layout(_ reader: inout ObjectReader) -> Layout {
        guard let node = reader.node("layout"), var entry = ObjectReader(node, path: reader.path("layout"), log: log)
        else { return Layout() }
        defer { entry.finish() }
        var layout = Layout()
        if let help = entry.choice("help", as: Layout.Help.self, expected: "'shown' or 'toggle'") { layout.help = help }
        for line in entry.list("lines") ?? [] {
            guard case .sequence(let items, _) = line.node else {
                log.add(line.path, "a line is a list of row tags, such as [starts, ends]", at: line.node)
                continue
            }
            layout.lines.append(
                items.enumerated().compactMap { index, item in
                    guard case .scalar(let tag, _, _) = item else {
                        log.add("\(line.path)[\(index)]", "expected a row's tag, found \(item.kindName)", at: item)
                        return nil
                    }
                    return tag
                })
        }
        return layout
    }

    /// `deliver`: a list of objects, each with exactly one of `webhook` (and its `secretEnv`), `email`
    /// and `confirmTo`.
    private func deliveries(_ reader: inout ObjectReader) -> [Delivery] {
        guard let items = reader.list("deliver") else { return [] }
        return items.compactMap { item in
            guard var entry = ObjectReader(item.node, path: item.path, log: log) else { return nil }
            defer { entry.finish() }
            let kinds = ["webhook", "email", "confirmTo"].filter { entry.has($0) }
            guard kinds.count == 1, let kind = kinds.first, let value = entry.string(kind) else {
                if kinds.count != 1 {
                    log.add(
                        item.path, "a delivery has exactly one of 'webhook', 'email' and 'confirmTo'", at: item.node)
                }
                entry.skip(["secretEnv"])
                return nil
            }
            switch kind {
            case "webhook":
                guard let secret = entry.string("secretEnv") else {
                    log.add(
                        item.path + ".secretEnv",
                        "a webhook needs 'secretEnv': the environment variable holding its signing secret (whsec_…)",
                        at: item.node)
                    return nil
                }
                return .webhook(url: value, secretEnv: secret)
            case "email": return .email(address: value)
            default: return .confirmTo(tag: value)
            }
        }
    }

    private func messages(_ reader: inout ObjectReader) -> [String: [String: String]] {
        guard let node = reader.node("messages") else { return [:] }
        guard var locales = ObjectReader(node, path: reader.path("messages"), log: log) else { return [:] }
        var result: [String: [String: String]] = [:]
        if case .mapping(let pairs, _) = node {
            for (locale, texts, _) in pairs {
                guard case .mapping(let entries, _) = texts else {
                    log.add(locales.path(locale), "expected an object of texts", at: texts)
                    _ = locales.node(locale)
                    continue
                }
                _ = locales.node(locale)
                result[locale] = Dictionary(
                    entries.compactMap { key, value, _ in
                        // A null text is no text, as a null key is no key (`ObjectReader.node`).
                        guard case .scalar(let text, _, _) = value, !value.isNull else { return nil }
                        return (key, text)
                    }, uniquingKeysWith: { $1 })
            }
        }
        locales.finish()
        return result
    }

    private func section(_ node: DescriptorNode, path: String) -> Section? {
        guard var reader = ObjectReader(node, path: path, log: log) else { return nil }
        var section = Section()
        section.tag = reader.string("tag")
        section.title = reader.string("title")
        section.footer = reader.string("footer")
        section.hidden = reader.condition("hidden") ?? .never
        section.multivaluedTag = reader.string("multivaluedTag")
        for (index, name) in (reader.strings("multivaluedOptions") ?? []).enumerated() {
            switch name {
            case "insert": section.multivaluedOptions.insert(.insert)
            case "delete": section.multivaluedOptions.insert(.delete)
            case "reorder": section.multivaluedOptions.insert(.reorder)
            default:
                log.add(
                    "\(reader.path("multivaluedOptions"))[\(index)]",
                    "expected insert, delete or reorder, found '\(name)'", at: reader.node("multivaluedOptions"))
            }
        }
        if let mode = reader.choice("insertMode", as: Section.InsertMode.self, expected: "'lastRow' or 'button'") {
            section.insertMode = mode
        }
        section.maxRows = reader.integer("maxRows", minimum: 1)
        if let template = reader.node("rowTemplate") {
            section.rowTemplate = row(template, path: reader.path("rowTemplate"))
        }
        section.rows = (reader.list("rows") ?? []).map { row($0.node, path: $0.path) ?? Row(.label, tag: nil) }
        if section.multivaluedTag == nil, section.rowTemplate != nil || !section.multivaluedOptions.isEmpty {
            log.add(path, "multivaluedOptions and rowTemplate need a multivaluedTag", at: node)
        }
        if section.multivaluedTag != nil, section.multivaluedOptions.contains(.insert), section.rowTemplate == nil {
            log.add(path, "a multivalued section that allows insert needs a rowTemplate", at: node)
        }
        reader.finish()
        return section
    }

    func row(_ node: DescriptorNode, path: String) -> Row? {
        guard var reader = ObjectReader(node, path: path, log: log) else { return nil }
        guard let typeName = reader.string("type") else {
            log.add(reader.path("type"), "every row needs a type", at: node)
            // The rest of the row is not read: only keys no row has are reported (`rowType` among them).
            reader.skip(Self.rowKeys)
            reader.finish()
            return nil
        }
        guard let type = rowTypes.named(typeName) else {
            let names = rowTypes.names
            let suggestion = closestName(to: typeName, among: names).map { " (did you mean '\($0)'?)" }
            log.add(
                reader.path("type"),
                "unknown row type '\(typeName)'\(suggestion ?? ""); known types: \(names.joined(separator: ", "))",
                at: reader.node("type"))
            return nil
        }
        var row = Row(type, tag: reader.string("tag"), title: reader.string("title"))
        row.placeholder = reader.string("placeholder")
        if let autocomplete = reader.string("autocomplete") {
            if let problem = Autofill.problem(in: autocomplete, for: type) {
                log.add(reader.path("autocomplete"), problem, at: reader.node("autocomplete"))
            } else {
                row.autocomplete = autocomplete
            }
        }
        row.required = reader.condition("required") ?? .never
        row.requireMessage = reader.string("requireMsg")
        row.hidden = reader.condition("hidden") ?? .never
        row.disabled = reader.condition("disabled") ?? .never
        row.noValueDisplayText = reader.string("noValueDisplayText")
        row.help = reader.string("help")
        row.maxLength = reader.integer("maxLength", minimum: 0)
        (row.store, row.storeHashed) = storePolicy(&reader)
        row.url = reader.string("url")
        row.accept = reader.strings("accept") ?? []
        row.optionsFrom = reader.string("optionsFrom")
        let listed = options(&reader)
        if !listed.isEmpty { row.options = listed }  // else the type's own, if it has some
        let values = ValueDecoder(log: log, row: row, zone: zone)
        row.min = reader.node("min").flatMap { values.bound($0, path: reader.path("min")) }
        row.max = reader.node("max").flatMap { values.bound($0, path: reader.path("max")) }
        row.step = reader.node("step").flatMap { values.bound($0, path: reader.path("step")) }
        row.value = reader.node("value").flatMap { values.value($0, path: reader.path("value")) }
        // A validator that cannot be read keeps its place (as one that always passes), so later ones keep their indexes.
        row.validators = (reader.list("validators") ?? []).map {
            validator($0.node, path: $0.path, values: values) ?? ValidatorSpec(.predicate("TRUEPREDICATE"))
        }
        if row.type.needsOptions && row.options.isEmpty && row.optionsFrom == nil {
            log.add(reader.path("options"), "a \(row.type.name) row needs options", at: node)
        }
        if !row.type.takesInput, row.required != .never {
            log.add(
                reader.path("required"), "a \(row.type.name) row takes no input, so it cannot be required", at: node
            )
        }
        reader.finish()
        return row
    }

    /// Every key a row may have.
    static let rowKeys = [
        "tag", "type", "title", "value", "placeholder", "autocomplete", "required", "requireMsg", "hidden", "disabled",
        "noValueDisplayText", "help", "maxLength", "url", "accept", "options", "optionsFrom", "min", "max", "step",
        "validators", "store",
    ]

    /// `store`: `true` (the default), `false` (never kept), or `hash` (a salted hash kept instead).
    private func storePolicy(_ reader: inout ObjectReader) -> (store: Bool, hashed: Bool) {
        guard let node = reader.node("store") else { return (true, false) }
        if let flag = ObjectReader.bool(node) { return (flag, false) }
        if case .scalar("hash", _, _) = node { return (true, true) }
        log.add(reader.path("store"), "expected true, false or hash", at: node)
        return (true, false)
    }

    private func options(_ reader: inout ObjectReader) -> [Option] {
        guard let items = reader.list("options") else { return [] }
        var seen: Set<String> = []
        return items.compactMap { path, node in
            let option: Option?
            switch node {
            case .scalar where node.isNull:
                log.add(path, "an option cannot be null: give it a value", at: node)
                option = nil
            case .scalar(let text, _, _): option = Option(text)
            case .mapping:
                guard var object = ObjectReader(node, path: path, log: log) else { return nil }
                let value = object.string("value")
                let title = object.string("title")
                object.finish()
                guard let value else {
                    log.add(path, "an option needs a value", at: node)
                    return nil
                }
                option = Option(value, title: title)
            case .sequence:
                log.add(path, "an option is a text or an object with value and title", at: node)
                option = nil
            }
            if let option, !seen.insert(option.value).inserted {
                log.add(path, "the option value '\(option.value)' appears twice", at: node)
            }
            return option
        }
    }

    private func validator(_ node: DescriptorNode, path: String, values: ValueDecoder) -> ValidatorSpec? {
        guard var reader = ObjectReader(node, path: path, log: log) else { return nil }
        defer { reader.finish() }
        let message = reader.string("message")
        guard let kind = reader.string("kind") else {
            log.add(reader.path("kind"), "a validator needs a kind", at: node)
            return nil
        }
        let missing = { (parameter: String) -> ValidatorSpec? in
            log.add(reader.path(parameter), "a \(kind) validator needs '\(parameter)'", at: node)
            return nil
        }
        switch kind {
        case "regex":
            guard let pattern = reader.string("pattern") else { return missing("pattern") }
            return ValidatorSpec(.regex(pattern), message: message)
        case "email": return ValidatorSpec(.email, message: message)
        case "url":
            return ValidatorSpec(.url(schemes: reader.strings("schemes") ?? ["http", "https"]), message: message)
        case "minLength", "maxLength":
            guard reader.has("value") else { return missing("value") }
            guard let length = reader.integer("value", minimum: 0) else { return nil }
            return ValidatorSpec(kind == "minLength" ? .minLength(length) : .maxLength(length), message: message)
        case "min", "max":
            guard let bound = reader.node("value") else { return missing("value") }
            guard let value = values.bound(bound, path: reader.path("value")) else { return nil }
            return ValidatorSpec(kind == "min" ? .min(value) : .max(value), message: message)
        case "equalsRow":
            guard let tag = reader.string("row") else { return missing("row") }
            return ValidatorSpec(.equalsRow(tag), message: message)
        case "predicate":
            guard let source = reader.string("predicate") else { return missing("predicate") }
            return ValidatorSpec(.predicate(source), message: message)
        case "custom":
            guard let name = reader.string("name") else { return missing("name") }
            return ValidatorSpec(.custom(name), message: message)
        default:
            log.add(
                reader.path("kind"),
                "unknown validator kind '\(kind)'; known kinds: regex, email, url, minLength, maxLength, min, max, equalsRow, predicate, custom",
                at: reader.node("kind"))
            return nil
        }
    }
}
