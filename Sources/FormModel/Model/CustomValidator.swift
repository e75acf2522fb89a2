/// A validator written in Swift and called by name from descriptors: `{ kind: custom, name: invitationCode }`.
///
/// ```swift
/// let code = CustomValidator("invitationCode") { value in
///     value.description.hasPrefix("FW-") ? nil : "Invitation codes start with FW-"
/// }
/// ```
public struct CustomValidator: Sendable {
    /// The name descriptors use.
    public let name: String
    /// Returns the message to show when `value` fails, or nil when it passes. It is called only for
    /// non-empty values of visible, enabled rows, like every other rule.
    public let check: @Sendable (FormValue) -> String?

    /// A validator called `name`.
    public init(_ name: String, check: @escaping @Sendable (FormValue) -> String?) {
        self.name = name
        self.check = check
    }
}
