/// The settings of a whole form, each one a modifier.
extension FormDefinition {
    /// Read-only: every row shows its value and nothing can be submitted (read-only when no argument is given).
    public func disabled(_ flag: Bool = true) -> FormDefinition { updating { $0.disabled = flag } }

    /// Whether required rows' titles end with `*`: they do unless this says `false`.
    public func addAsteriskToRequiredRowsTitle(_ flag: Bool = true) -> FormDefinition {
        updating { $0.addAsteriskToRequiredRowsTitle = flag }
    }

    /// Which rows share a line on a wide screen (each by tag, next to one another in one section), and
    /// whether help waits behind a "?" toggle: `.layout(lines: [["starts", "ends"]], help: .toggle)`.
    public func layout(lines: [[String]] = [], help: Layout.Help = .shown) -> FormDefinition {
        updating { $0.layout = Layout(lines: lines, help: help) }
    }

    /// The submit button's text.
    public func submitTitle(_ text: String?) -> FormDefinition { updating { $0.submitTitle = text } }

    /// The language of texts and built-in messages (`en`, `zh-Hans`).
    public func locale(_ locale: String) -> FormDefinition { updating { $0.locale = locale } }

    /// The time zone in which dates and times are entered, as an IANA name (`Europe/Paris`).
    public func timeZone(_ identifier: String) -> FormDefinition { updating { $0.timeZone = identifier } }

    /// What a hidden row means to the conditions that read it: see `Form.HiddenValues`.
    public func hiddenValues(_ mode: Form.HiddenValues) -> FormDefinition { updating { $0.hiddenValues = mode } }

    /// Where a browser goes after a valid submission; a thank-you page when nil.
    public func successRedirect(_ url: String?) -> FormDefinition { updating { $0.successRedirect = url } }

    /// Whether the person who sent a submission may change it later through a private link (editable
    /// when no argument is given): see `Form.editable`.
    public func editable(_ flag: Bool = true) -> FormDefinition { updating { $0.editable = flag } }

    /// Where the form's kept submissions are delivered besides the store: see `Delivery`.
    public func deliver(_ deliveries: [Delivery]) -> FormDefinition { updating { $0.deliveries = deliveries } }

    /// Texts for `locale` that replace built-in ones (`["required": "…"]`), merged into those given before.
    public func messages(_ texts: [String: String], for locale: String) -> FormDefinition {
        updating { $0.messages[locale, default: [:]].merge(texts) { _, new in new } }
    }
}
