/// A validator a row declares, by `kind`, with its parameters and an optional message.
public struct ValidatorSpec: Sendable, Hashable {
    /// What the validator checks.
    public enum Kind: Sendable, Hashable {
        /// The whole value matches a regular expression.
        case regex(String)
        /// A valid e-mail address as HTML defines it.
        case email
        /// An absolute URL whose scheme is one of these (`http`, `https` by default).
        case url(schemes: [String])
        /// At least this many characters (or chosen options).
        case minLength(Int)
        /// At most this many characters (or chosen options).
        case maxLength(Int)
        /// At least this number, date or time.
        case min(FormValue)
        /// At most this number, date or time.
        case max(FormValue)
        /// Equal to another row's value (confirm password).
        case equalsRow(String)
        /// A predicate that must hold, e.g. `$ends >= $starts`.
        case predicate(String)
        /// A validator registered in Swift under this name.
        case custom(String)
    }

    /// What is checked.
    public var kind: Kind
    /// The message shown when the check fails, instead of the default one.
    public var message: String?

    /// A validator of `kind`, with an optional message.
    public init(_ kind: Kind, message: String? = nil) {
        self.kind = kind
        self.message = message
    }

    /// The name descriptors use for this kind: `regex`, `email`, `minLength`, ….
    public var kindName: String {
        switch kind {
        case .regex: "regex"
        case .email: "email"
        case .url: "url"
        case .minLength: "minLength"
        case .maxLength: "maxLength"
        case .min: "min"
        case .max: "max"
        case .equalsRow: "equalsRow"
        case .predicate: "predicate"
        case .custom: "custom"
        }
    }
}
