import FormModel
import FormPredicate

/// A submission's life for one compiled form: raw fields → typed values → hidden and disabled resolved
/// in dependency order → validators on what is visible and enabled → a `Verdict`.
///
/// ```swift
/// let engine = FormEngine(form: catalog.forms["event"]!)
/// var fields = SubmittedFields()
/// fields.append("title", .text("Lunch"))
/// let verdict = engine.evaluate(fields, locale: "en")
/// verdict.isValid                 // false: starts and ends are required
/// verdict.errors.map(\.message)   // ["Starts can't be empty", "Ends can't be empty"]
/// ```
///
/// The engine is immutable and `Sendable`: build it once per form and share it across requests.
/// A class, so that sharing it costs one retain rather than one per stored table.
public final class FormEngine: Sendable {
    /// The form judged.
    public let form: CompiledForm
    /// Validators registered in Swift, by the name descriptors call them.
    public let customValidators: [String: CustomValidator]
    /// The largest upload an upload row accepts, in bytes (`serve --max-file`): a larger file is the
    /// row's error (`fileTooLarge`), and the rest of the submission is judged and kept for the page.
    public let maximumFileSize: Int?
    let decoder: FieldDecoder
    /// The locales the form has texts in (`MessageLocale.available(for:)`): what `evaluate`'s `locale`
    /// chooses among.
    public let locales: [String]
    /// Messages per locale of `locales`, with the descriptor's overrides merged once.
    private let messages: [String: Messages]
    /// What is worked out once for `form`, so a request only reads it.
    private let plan: FormPlan

    /// An engine for `form` with the Swift validators its descriptor calls by name and the option
    /// sources its rows search (`optionsFrom`); uploads over `maximumFileSize` bytes are refused (nil:
    /// any size).
    public init(
        form: CompiledForm, customValidators: [String: CustomValidator] = [:],
        optionSources: [String: OptionSource] = [:], maximumFileSize: Int? = nil
    ) {
        self.form = form
        self.customValidators = customValidators
        self.maximumFileSize = maximumFileSize
        decoder = FieldDecoder(zone: ZoneConverter(identifier: form.form.timeZone))
        locales = MessageLocale.available(for: form.form)
        var messages: [String: Messages] = [:]
        for locale in locales { messages[locale] = Messages(locale: locale, overrides: form.form.messages) }
        self.messages = messages
        plan = FormPlan(form: form, optionSources: optionSources)
    }

    /// The option source row `index` searches (`optionsFrom`), when it names one that was given.
    public func optionSource(row index: Int) -> OptionSource? { plan.rows[index].source }

    /// The custom validator names `form` calls that are not in `registered`, each once.
    public static func unregisteredValidators(in form: CompiledForm, registered: [String: CustomValidator]) -> [String]
    {
        let specs = form.rows.flatMap(\.validators) + form.sections.flatMap { $0.item?.validators ?? [] }
        var missing: [String] = []
        for case .custom(let name) in specs.map(\.spec.kind) where registered[name] == nil && !missing.contains(name) {
            missing.append(name)
        }
        return missing
    }

    /// The steps of matching work (`EvaluationBudget`) one submission's conditions and patterns may take:
    /// about 0.1 s of one core at the most, whatever the form's patterns and the values sent.
    public static let submissionBudget = 12_000_000

    /// Judges `fields`, with messages in `locale` (`MessageLocale.choose` picks it); `explain` records
    /// how every condition was decided. `stored` are the values of the record being edited, if any:
    /// disabled rows keep them, and an API client that leaves a key out keeps its stored value.
    /// Conditions and patterns take at most `budget` steps together: past it, the verdict refuses the
    /// submission as a whole (`tooLongToCheck`) and says so (`Verdict.spentBudget`).
    public func evaluate(
        _ fields: SubmittedFields, stored: StoredValues? = nil, locale: String = "en", explain: Bool = false,
        budget: Int = FormEngine.submissionBudget
    ) -> Verdict {
        var values: [FormValue?] = []
        values.reserveCapacity(plan.rows.count)
        // Decoding problems in row order: a valid submission has none, so this stays unallocated.
        var problems: [(row: Int, problem: Problem)] = []
        // The options sources confirmed, for their titles: most forms search none, and this stays empty.
        var confirmed: [Int: Option] = [:]
        for index in plan.rows.indices {
            values.append(
                plan.withRow(index) { rowPlan, compiled in
                    guard rowPlan.searchesOptions, let tag = rowPlan.field, !(fields.isJSON && !fields.contains(tag))
                    else { return decode(fields, row: index, rowPlan, compiled, stored: stored, problems: &problems) }
                    return confirm(
                        fields.values(named: tag), row: index, rowPlan, problems: &problems, confirmed: &confirmed)
                })
        }
        var items: [Int: MultivaluedItems] = [:]
        if plan.hasMultivaluedSections {
            for section in form.sections {
                guard let tag = section.section.multivaluedTag, let item = section.item else { continue }
                // A disabled list keeps the server's items (rule 5), as a disabled row keeps its value.
                let disabled = form.form.disabled || section.rows.first.map { form.rows[$0].disabled.isAlways } ?? false
                if disabled || (fields.isJSON && !fields.contains(tag)) {
                    items[section.index] =
                        stored?.items[section.index].map { MultivaluedItems(stored: $0, item: item.row) }
                        ?? MultivaluedItems(defaults: section.section)
                    continue
                }
                items[section.index] = MultivaluedItems(
                    sent: fields[tag], isJSON: fields.isJSON, item: item.row, section: section.section,
                    decoder: decoder)
            }
        }
        var verdict = judge(
            values: values, problems: problems, items: items, fields: fields, stored: stored, locale: locale,
            explain: explain, budget: budget)
        // A disabled row keeps the server's value, whatever was posted and confirmed: the title goes with it.
        verdict.confirmedOptions = confirmed.filter { verdict.values[$0.key] == .option($0.value.value) }
        return verdict
    }

    /// The value of a row whose options come from a source: the text sent, confirmed by the source's
    /// `lookup` within its deadline. A value it does not know is `unknownOption`; a source that fails or is
    /// late is `optionsUnavailable`, which the server answers `503`: nothing was wrong with what was sent.
    private func confirm(
        _ sent: SubmittedFields.Sent?, row index: Int, _ rowPlan: RowPlan,
        problems: inout [(row: Int, problem: Problem)],
        confirmed: inout [Int: Option]
    ) -> FormValue? {
        let text: FormValue?
        // A JSON number is an option's value as a built-in selector reads it: its text.
        var sent = sent
        if case .one(.number(let digits))? = sent { sent = .one(.text(digits)) }
        switch decoder.decode(sent, as: .text, options: [], keepsBlank: false) {
        case .success(let value): text = value
        case .failure(let problem):
            problems.append((index, problem))
            return nil
        }
        guard case .text(let value)? = text else { return nil }
        do throws(OptionSource.Unavailable) {
            guard let source = rowPlan.source, let option = try source.option(value) else {
                problems.append((index, rowPlan.source == nil ? .optionsUnavailable : .unknownOption))
                return nil
            }
            confirmed[index] = option
            return .option(option.value)
        } catch {
            problems.append((index, .optionsUnavailable))
            return nil
        }
    }

    /// Row `index`'s decoded value (nil when it could not be decoded; the problem is appended).
    private func decode(
        _ fields: SubmittedFields, row index: Int, _ rowPlan: RowPlan, _ compiled: CompiledRow,
        stored: StoredValues?, problems: inout [(row: Int, problem: Problem)]
    ) -> FormValue? {
        // `compiled.row` is read in place: a local copy of a `Row` costs a retain per field.
        // Rows that take no input (info, label) show their descriptor value, whatever is posted.
        guard rowPlan.takesInput else { return compiled.row.value }
        guard let tag = rowPlan.field else { return nil }
        // An API client that leaves a key out gets the row's default (the stored value when a record is
        // edited), as a browser that leaves a control untouched posts it; `null` is how JSON clears a value.
        if fields.isJSON, !fields.contains(tag) {
            if let value = stored?.rows[index] { return value }
            return compiled.row.value ?? (rowPlan.kind == .bool ? .bool(false) : nil)
        }
        let sent = fields.values(named: tag)
        let decoded =
            if let decode = rowPlan.custom?.decode {
                decoder.decode(sent?.all ?? [], with: decode, type: rowPlan.typeName, kind: rowPlan.kind)
            } else {
                decoder.decode(sent, as: rowPlan.kind, options: compiled.row.options, keepsBlank: rowPlan.keepsBlank)
            }
        switch decoded {
        case .success(let value):
            guard rowPlan.kind == .dateTime else { return value }
            return Self.keepingServerInstant(
                value, sent: sent?.first, server: stored?.rows[index] ?? compiled.row.value)
        case .failure(let problem):
            problems.append((index, problem))
            return nil
        }
    }

    /// A wall-clock time in the hour an autumn change repeats is two instants, and the decoder takes the
    /// earlier. When the text sent, with no offset, is the wall-clock reading of the server's own value
    /// for the row (a page showed it, and it came back untouched), that value's instant is the one meant:
    /// a `datetime-local` control cannot say which, and an edit that changes nothing must change nothing.
    private static func keepingServerInstant(_ value: FormValue?, sent: RawValue?, server: FormValue?) -> FormValue? {
        guard case .dateTime(let decoded)? = value, case .dateTime(let kept)? = server,
            decoded.local == kept.local, decoded.offset != kept.offset, case .text(let text)? = sent,
            !text.utf8.dropFirst(10).contains(where: {
                [UInt8(ascii: "Z"), UInt8(ascii: "z"), UInt8(ascii: "+"), UInt8(ascii: "-")].contains($0)
            })
        else { return value }
        return server
    }

    /// The verdict on the descriptor's own values, or on a stored record's where `stored` has them:
    /// what a fresh page shows, and what is hidden, disabled and required on it.
    public func initial(stored: StoredValues? = nil, locale: String = "en", explain: Bool = false) -> Verdict {
        var items: [Int: MultivaluedItems] = [:]
        for section in form.sections where section.section.isMultivalued {
            items[section.index] =
                stored?.items[section.index].flatMap { values in
                    section.item.map { MultivaluedItems(stored: values, item: $0.row) }
                } ?? MultivaluedItems(defaults: section.section)
        }
        // A checkbox with no default is unchecked: false, as a submission that leaves it alone says.
        let defaults = form.rows.map { row in
            if let value = stored?.rows[row.index] { return value }
            return row.row.value ?? (row.row.type.valueKind == .bool ? .bool(false) : nil)
        }
        return judge(
            values: defaults, problems: [], items: items, fields: nil, stored: stored, locale: locale,
            explain: explain, budget: Self.submissionBudget, validate: false)
    }

    private func judge(
        values: [FormValue?], problems: [(row: Int, problem: Problem)], items: [Int: MultivaluedItems],
        fields: SubmittedFields?, stored: StoredValues?, locale: String, explain: Bool, budget: Int,
        validate: Bool = true
    ) -> Verdict {
        var resolution = Resolution(
            plan: plan, values: values, stored: stored?.rows ?? [:], explain: explain,
            budget: EvaluationBudget(steps: budget))
        for (index, _) in problems { resolution.undecodable[index] = true }
        resolution.resolve(items: { items[$0]?.values ?? [] })
        var judge = Judgement(
            plan: plan, messages: messages(for: locale),
            rules: Rules(customValidators: customValidators, maximumFileSize: maximumFileSize))
        if validate {
            judge.validateRows(problems: problems, resolution: &resolution)
            if !items.isEmpty {
                judge.validateItems(items, resolution: &resolution)
                judge.putInPageOrder()
            }
            if resolution.budget.isSpent { judge.refuseSpentBudget() }
        }
        // Most forms have no multivalued section: no need to map an empty dictionary twice.
        return Verdict(
            plan: plan, locale: locale, errors: judge.errors, resolution: resolution,
            items: items.isEmpty ? [:] : items.mapValues(\.values),
            itemPositions: items.isEmpty ? [:] : items.mapValues(\.positions), fields: fields,
            enteredItems: items.isEmpty ? [:] : items.mapValues(\.entered))
    }
}

extension FormEngine {
    /// What upload row `index` says of a file over `maximumFileSize`, in `locale`: the message a post
    /// of one would get, for a page to say as soon as the file is chosen. Nil without a limit.
    public func fileTooLargeMessage(row index: Int, locale: String) -> String? {
        guard let limit = maximumFileSize else { return nil }
        return messages(for: locale).text(for: .fileTooLarge(limit: limit), name: form.rows[index].row.displayName)
    }

    /// The messages for `locale`: one of `locales`, or the one a reader of that tag gets.
    func messages(for locale: String) -> Messages {
        messages[locale] ?? MessageLocale.match(locale, in: locales).flatMap { messages[$0] }
            ?? Messages(locale: locale, overrides: form.form.messages)
    }
}

extension RawValue {
    /// The text to show again in a re-rendered control; nil for files and structures.
    public var enteredText: String? {
        switch self {
        case .text(let text), .number(let text): text
        case .bool(let flag): flag ? "on" : nil
        default: nil
        }
    }
}
