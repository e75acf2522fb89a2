/// A value a predicate reads or computes: the JSON data model, never `Any`.
///
/// Numbers are `Double`, as in the browser, so the Swift and JavaScript evaluators agree on arithmetic.
public enum PredicateValue: Sendable, Hashable {
    /// JSON `null` (Foundation's `NSNull`); a row that is hidden or empty reads as null.
    case null
    /// A boolean; comparisons and arithmetic treat it as 1 or 0.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An ordered list, such as a multiple selection.
    case array([PredicateValue])
    /// A keyed record; key paths read into it.
    case dictionary([String: PredicateValue])
}

extension PredicateValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// Creates `.null`.
    public init(nilLiteral: ()) { self = .null }
    /// Creates `.bool`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// Creates `.number`.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// Creates `.number`.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// Creates `.string`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// Creates `.array`.
    public init(arrayLiteral elements: PredicateValue...) { self = .array(elements) }
    /// Creates `.dictionary`; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, PredicateValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension PredicateValue {
    /// The name of the value's kind, used in error messages (`number`, `string`, ...).
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .dictionary: "dictionary"
        }
    }

    /// The value as a number when it is one or a boolean (true = 1, false = 0).
    var numericValue: Double? {
        switch self {
        case .number(let number): number
        case .bool(let flag): flag ? 1 : 0
        default: nil
        }
    }
}
