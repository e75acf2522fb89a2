/// One choice of a selector row: the value posted and stored, and the title shown
/// (XLForm's `XLFormOptionsObject` formValue / displayText).
public struct Option: Sendable, Hashable {
    /// What the form posts and the payload carries.
    public var value: String
    /// What a person reads; the value when not given.
    public var title: String

    /// An option whose title defaults to its value.
    public init(_ value: String, title: String? = nil) {
        self.value = value
        self.title = title ?? value
    }
}
