/// One distinct variable a predicate reads: a tag (or variable name) and which of the row's facets.
///
/// `Predicate.variables` lists these in first-use order; an environment answers index `i` for entry `i`.
public struct PredicateVariable: Sendable, Hashable, CustomStringConvertible {
    /// The variable's name: the row tag in form mode, such as `all-day`.
    public let name: String
    /// Which facet of the row is read; always `.value` outside form mode.
    public let attribute: PredicateAttribute

    /// Creates a reference to `name`'s `attribute`.
    public init(name: String, attribute: PredicateAttribute = .value) {
        self.name = name
        self.attribute = attribute
    }

    /// `all-day.value`, `alert.isHidden`.
    public var description: String { "\(name).\(attribute.rawValue)" }
}

/// The facet of a row that a form predicate reads.
public enum PredicateAttribute: String, Sendable, Hashable, CaseIterable {
    /// The row's value: `$tag` or `$tag.value`.
    case value
    /// Whether the row is hidden: `$tag.isHidden`.
    case isHidden
    /// Whether the row is disabled: `$tag.isDisabled`.
    case isDisabled
}

/// How predicate text is read.
public struct PredicateParseOptions: Sendable, Hashable {
    /// The form's row tags, or `nil` for plain NSPredicate variables (corpus mode).
    ///
    /// With tags, `$` reads the longest tag that matches at that position (`$all-day` is the tag `all-day`),
    /// an unknown `$name` is a parse error, and `.value`, `.isHidden` and `.isDisabled` right after a tag
    /// select the row's facet instead of being key paths. `${any text}` names a tag explicitly in both modes.
    public var knownTags: Set<String>? {
        didSet { tagsByLength = Self.sortedByLength(knownTags) }
    }
    /// The deepest nesting of parentheses, `NOT`, aggregates and operators accepted.
    public var maximumDepth: Int

    /// The tags as scalars, longest first, computed once per form rather than once per parse.
    private(set) var tagsByLength: [[Unicode.Scalar]]?

    /// Creates options; the defaults read plain NSPredicate variables with a nesting limit of 64.
    public init(knownTags: Set<String>? = nil, maximumDepth: Int = 64) {
        self.knownTags = knownTags
        self.maximumDepth = maximumDepth
        tagsByLength = Self.sortedByLength(knownTags)
    }

    private static func sortedByLength(_ tags: Set<String>?) -> [[Unicode.Scalar]]? {
        tags.map { tags in
            tags.map { Array($0.unicodeScalars) }.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
        }
    }

    /// Options for a form whose rows carry `tags`.
    public static func form(tags: some Sequence<String>) -> PredicateParseOptions {
        PredicateParseOptions(knownTags: Set(tags))
    }
}
