/// A row's `autocomplete`: HTML's autofill detail tokens (HTML §4.10.18.7.1), checked at load so a
/// browser never receives one it would ignore. `given-name`, `shipping postal-code`, `work email`,
/// `section-guest tel`, `off`.
///
/// A row's type already implies one where it can (`email` rows are `email`, `zipCode` rows
/// `postal-code`); a descriptor names the purpose of the rest, as WCAG 2.1's "Identify Input Purpose"
/// (SC 1.3.5) asks of every field about the person filling the form in.
public enum Autofill {
    /// What is wrong with `value` as the `autocomplete` of a row of `type`, or nil when a browser reads it.
    public static func problem(in value: String, for type: RowType) -> String? {
        type.takesAutocomplete ? problem(in: value) : "a \(type.name) row's control takes no autocomplete"
    }

    /// What is wrong with `value` as an `autocomplete` attribute, or nil when a browser reads it.
    public static func problem(in value: String) -> String? {
        var tokens = value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map { $0.lowercased() }
        guard !tokens.isEmpty else { return "autocomplete is empty; leave it out, or write \"off\"" }
        if tokens == ["on"] || tokens == ["off"] { return nil }
        if tokens.last == "webauthn" { tokens.removeLast() }
        guard let field = tokens.popLast() else { return "webauthn needs a field name before it" }
        if contactFields.contains(field), let kind = tokens.last, contactKinds.contains(kind) { tokens.removeLast() }
        guard fields.contains(field) || contactFields.contains(field) else {
            return "'\(field)' is not an autofill field name (given-name, email, postal-code, tel, …)"
        }
        if let mode = tokens.last, mode == "shipping" || mode == "billing" { tokens.removeLast() }
        if let section = tokens.last, section.hasPrefix("section-"), section.count > "section-".count {
            tokens.removeLast()
        }
        guard tokens.isEmpty else {
            return "'\(tokens.joined(separator: " "))' cannot come there: the order is section-*, shipping or "
                + "billing, home/work/mobile/fax/pager (for tel, email, impp), then the field name"
        }
        return nil
    }

    /// Field names for anything but a way of contact (HTML's autofill field names).
    static let fields: Set<String> = [
        "name", "honorific-prefix", "given-name", "additional-name", "family-name", "honorific-suffix", "nickname",
        "username", "new-password", "current-password", "one-time-code", "organization-title", "organization",
        "street-address", "address-line1", "address-line2", "address-line3", "address-level4", "address-level3",
        "address-level2", "address-level1", "country", "country-name", "postal-code", "cc-name", "cc-given-name",
        "cc-additional-name", "cc-family-name", "cc-number", "cc-exp", "cc-exp-month", "cc-exp-year", "cc-csc",
        "cc-type", "transaction-currency", "transaction-amount", "language", "bday", "bday-day", "bday-month",
        "bday-year", "sex", "url", "photo",
    ]

    /// Field names of a way of contact, which `home`, `work`, `mobile`, `fax` or `pager` may qualify.
    static let contactFields: Set<String> = [
        "tel", "tel-country-code", "tel-national", "tel-area-code", "tel-local", "tel-local-prefix",
        "tel-local-suffix", "tel-extension", "email", "impp",
    ]

    static let contactKinds: Set<String> = ["home", "work", "mobile", "fax", "pager"]
}
