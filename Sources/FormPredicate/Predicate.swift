/// A compiled predicate: parsed once, then evaluated many times without touching its text again.
///
/// ```swift
/// let hidden = try Predicate("$alert == 'never'")
/// try hidden.evaluate(["alert": "never"])            // true
///
/// // Form mode: tags that are not identifiers, and row state.
/// let options = PredicateParseOptions.form(tags: ["all-day", "starts", "alert"])
/// let rule = try Predicate("$all-day == 1 OR $alert.isHidden == YES", options: options)
/// rule.variables  // [all-day.value, alert.isHidden]
/// try rule.evaluate(in: [.bool(true), .bool(false)] as [PredicateValue?])  // true
/// ```
///
/// The type shares its name with Foundation's `Predicate`; where both modules are imported, write
/// `FormPredicate.Predicate`.
public struct Predicate: Sendable, CustomStringConvertible {
    /// The text the predicate was parsed from.
    public let source: String
    /// The distinct variables the predicate reads, in first-use order; environments answer by this index.
    public let variables: [PredicateVariable]
    /// The options the predicate was parsed with.
    public let options: PredicateParseOptions
    let root: PredicateNode

    /// Parses `source`, throwing an error that names the column and what was expected.
    public init(_ source: String, options: PredicateParseOptions = PredicateParseOptions()) throws(PredicateParseError)
    {
        let (root, variables) = try Parser.parse(source, options: options)
        self.source = source
        self.options = options
        self.root = root
        self.variables = variables
    }

    /// A predicate with the same text, options and variables as `base` and another syntax tree.
    init(_ base: Predicate, root: PredicateNode) {
        source = base.source
        options = base.options
        variables = base.variables
        self.root = root
    }

    /// The row tags (or variable names) the predicate reads, each once, in first-use order.
    public var referencedNames: [String] {
        var seen = Set<String>()
        return variables.map(\.name).filter { seen.insert($0).inserted }
    }

    /// The facets of the row tagged `name` that the predicate reads.
    public func attributes(of name: String) -> Set<PredicateAttribute> {
        Set(variables.filter { $0.name == name }.map(\.attribute))
    }

    /// Evaluates against `environment`, which answers `variables[i]` at index `i`.
    ///
    /// Comparisons of scalars (numbers, booleans, strings without `[c]`/`[d]`, null) do not allocate.
    /// With a `budget`, every comparison takes steps from it (`EvaluationBudget`), and once it is spent the
    /// evaluation throws `budgetSpent`.
    public func evaluate(
        in environment: some PredicateEnvironment, budget: EvaluationBudget? = nil
    ) throws(PredicateEvaluationError) -> Bool {
        try Evaluator(environment: environment, variables: variables, budget: budget).evaluate(root)
    }

    /// Evaluates with variables from a dictionary: `.value` references read `values[name]`; `.isHidden` and
    /// `.isDisabled` references are true when `name` is in `hidden` or `disabled`; `budget` as for `evaluate(in:)`.
    public func evaluate(
        _ values: [String: PredicateValue], hidden: Set<String> = [], disabled: Set<String> = [],
        budget: EvaluationBudget? = nil
    ) throws(PredicateEvaluationError) -> Bool {
        try evaluate(
            in: DictionaryEnvironment(variables: variables, values: values, hidden: hidden, disabled: disabled),
            budget: budget)
    }

    /// Equivalent predicate source, in canonical spelling (`==`, upper-case keywords, single quotes).
    public var description: String {
        PredicatePrinter(variables: variables, formMode: options.knownTags != nil).print(root)
    }
}
