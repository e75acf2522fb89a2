/// What a row is: its name in descriptors, the kind of value it holds, the control a page shows for it,
/// and the few behaviours a type has beyond its kind (a password's secrecy, an e-mail's syntax).
///
/// Each built-in type is one line of `RowType+BuiltIns.swift`, which is the one place that says how a
/// row of it behaves; the engine, the pages and the checks read these properties and never test for a
/// particular type. An application adds its own types the same way (`RowType.custom`).
public struct RowType: Sendable, Hashable, CustomStringConvertible {
    /// The descriptor's `type` string (`"selectorPush"`).
    public let name: String
    /// What a row of the type holds, which decides decoding, validation and the payloads' shape.
    public let valueKind: ValueKind
    /// The control a page shows.
    public let control: RowControl
    /// Whether the value is a secret (a password): a page never writes it back, a store keeps it only
    /// as a hash when asked to, and spaces are a value rather than blank.
    public let isSecret: Bool
    /// The syntax every value must have, checked even without a validator saying so.
    public let syntax: TextSyntax?
    /// What an application's own type adds: its decoder, its check, its options and its script.
    public let custom: CustomRowBehaviour?

    init(
        _ name: String, _ valueKind: ValueKind, _ control: RowControl, isSecret: Bool = false,
        syntax: TextSyntax? = nil, custom: CustomRowBehaviour? = nil
    ) {
        self.name = name
        self.valueKind = valueKind
        self.control = control
        self.isSecret = isSecret
        self.syntax = syntax
        self.custom = custom
    }

    /// Whether the row's value comes from its `options`.
    public var needsOptions: Bool { valueKind == .option || valueKind == .options }

    /// Whether a person can enter or change a value in the row.
    public var takesInput: Bool { valueKind != .none }

    /// Whether the row's control shows a `placeholder` (`RowControl.showsPlaceholder`).
    public var showsPlaceholder: Bool { control.showsPlaceholder }

    /// Whether the row's control may carry `autocomplete` (`RowControl.takesAutocomplete`).
    public var takesAutocomplete: Bool { takesInput && control.takesAutocomplete }

    /// The name, as descriptors and messages spell the type.
    public var description: String { name }

    /// Two types are the same when their names are: a name says everything a descriptor can.
    public static func == (lhs: RowType, rhs: RowType) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// A syntax a row type's text must have whatever its validators say: an `email` row holds an e-mail
/// address, a `url` row a web address.
public enum TextSyntax: Sendable, Hashable {
    /// HTML's valid e-mail address.
    case email
    /// An absolute `http` or `https` URL.
    case webURL
}

/// The kind of value a row holds, which decides decoding, validation and the payload's shape.
public enum ValueKind: String, Sendable, Hashable {
    /// A string.
    case text
    /// A whole number.
    case integer
    /// A decimal number, exact (money, measures).
    case decimal
    /// One option's value.
    case option
    /// A set of option values.
    case options
    /// A calendar date (no time, no zone).
    case date
    /// A time of day.
    case time
    /// A date and time of day in the form's time zone.
    case dateTime
    /// A length of time in seconds.
    case duration
    /// True or false; an unchecked checkbox is false.
    case bool
    /// An uploaded file.
    case file
    /// No value: display and action rows.
    case none
}
