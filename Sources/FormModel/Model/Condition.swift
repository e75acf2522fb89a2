/// A `hidden`, `disabled` or `required` setting: a constant, or an NSPredicate format string
/// evaluated per submission (`"$alert == 'never'"`).
public enum Condition: Sendable, Hashable, CustomStringConvertible {
    /// Always this answer.
    case constant(Bool)
    /// The answer of a predicate, compiled when the form is loaded.
    case predicate(String)

    /// Never true: the default for all three settings.
    public static let never = Condition.constant(false)
    /// Always true.
    public static let always = Condition.constant(true)

    /// `true`, `false`, or the predicate's source.
    public var description: String {
        switch self {
        case .constant(let flag): flag ? "true" : "false"
        case .predicate(let source): source
        }
    }
}
