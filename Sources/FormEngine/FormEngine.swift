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
public struct FormEngine: Sendable {
    /// The form judged.
    public let form: CompiledForm
    /// Validators registered in Swift, by the name descriptors call them.
    public let customValidators: [String: CustomValidator]
    private let decoder: FieldDecoder
    /// Messages per built-in locale, with the descriptor's overrides merged once.
    private let messages: [String: Messages]

    /// An engine for `form` with the Swift validators its descriptor calls by name.
    public init(form: CompiledForm, customValidators: [String: CustomValidator] = [:]) {
        self.form = form
        self.customValidators = customValidators
        decoder = FieldDecoder(zone: ZoneConverter(identifier: form.form.timeZone))
        var messages: [String: Messages] = [:]
        for locale in Set(MessageLocale.builtIn + form.form.messages.keys) {
            messages[locale] = Messages(locale: locale, overrides: form.form.messages)
        }
        self.messages = messages
    }

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

    /// Judges `fields`, with messages in `locale` (`MessageLocale.choose` picks it); `explain` records
    /// how every condition was decided.
    public func evaluate(_ fields: SubmittedFields, locale: String = "en", explain: Bool = false) -> Verdict {
        var decoded = [Result<FormValue?, Problem>](repeating: .success(nil), count: form.rows.count)
        for row in form.rows {
            let section = form.sections[row.sectionIndex].section
            // Rows that take no input (info, label) show their descriptor value, whatever is posted.
            guard row.row.type.takesInput else {
                decoded[row.index] = .success(row.row.value)
                continue
            }
            guard let tag = row.row.tag, !section.isMultivalued else { continue }
            let sent = fields[tag]
            // An API client that leaves a key out gets the row's default, as a browser that leaves a
            // control untouched posts it; `null` is how JSON clears a value.
            if fields.isJSON, !fields.contains(tag) {
                decoded[row.index] = .success(row.row.value ?? (row.row.type.valueKind == .bool ? .bool(false) : nil))
                continue
            }
            decoded[row.index] = decoder.decode(sent, for: row.row)
        }
        var items: [Int: MultivaluedItems] = [:]
        for section in form.sections {
            guard let tag = section.section.multivaluedTag, let item = section.item else { continue }
            // A disabled list keeps the server's items (rule 5), as a disabled row keeps its value.
            let disabled = form.form.disabled || section.rows.first.map { form.rows[$0].disabled.isAlways } ?? false
            if disabled || (fields.isJSON && !fields.contains(tag)) {
                items[section.index] = MultivaluedItems(defaults: section.section)
                continue
            }
            items[section.index] = MultivaluedItems(
                sent: fields[tag], isJSON: fields.isJSON, item: item.row, section: section.section, decoder: decoder)
        }
        return judge(
            submitted: { try? decoded[$0].get() }, decoded: decoded, items: items, fields: fields, locale: locale,
            explain: explain)
    }

    /// The verdict on the descriptor's own values: what a fresh page shows hidden, disabled and required.
    public func initial(locale: String = "en", explain: Bool = false) -> Verdict {
        var items: [Int: MultivaluedItems] = [:]
        for section in form.sections where section.section.isMultivalued {
            items[section.index] = MultivaluedItems(defaults: section.section)
        }
        // A checkbox with no default is unchecked: false, as a submission that leaves it alone says.
        let defaults = form.rows.map { $0.row.value ?? ($0.row.type.valueKind == .bool ? .bool(false) : nil) }
        let decoded = defaults.map { Result<FormValue?, Problem>.success($0) }
        return judge(
            submitted: { defaults[$0] }, decoded: decoded, items: items, fields: nil, locale: locale,
            explain: explain, validate: false)
    }

    private func judge(
        submitted: (Int) -> FormValue?, decoded: [Result<FormValue?, Problem>], items: [Int: MultivaluedItems],
        fields: SubmittedFields?, locale: String, explain: Bool, validate: Bool = true
    ) -> Verdict {
        var resolution = Resolution(form: form, explain: explain)
        for (index, result) in decoded.enumerated() {
            if case .failure = result { resolution.undecodable[index] = true }
        }
        resolution.resolve(submitted: submitted, items: { items[$0]?.values ?? [] })
        var judge = Judgement(
            form: form, messages: messages[locale] ?? Messages(locale: locale, overrides: form.form.messages),
            rules: Rules(customValidators: customValidators))
        if validate {
            judge.validateRows(decoded: decoded, resolution: &resolution)
            judge.validateItems(items, resolution: &resolution)
        }
        return Verdict(
            form: form, locale: locale, errors: judge.errors, resolution: resolution, items: items.mapValues(\.values),
            fields: fields, enteredItems: items.mapValues(\.entered), zone: decoder.zone.timeZone)
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
