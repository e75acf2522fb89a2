/// Options too many or too far away to write into a page (XLForm's custom selectors and data-loader
/// selectors): searched as the reader types, and each submitted value confirmed on its own. A row names
/// a source with `optionsFrom`; an application registers it in Swift.
///
/// ```swift
/// let cities = OptionSource("cities",
///     search: { query, limit in try database.cities(matching: query, limit: limit) },
///     lookup: { value in try database.city(id: value) })
/// ```
///
/// Both closures run with a deadline (`deadline`, 2 seconds unless given; `OptionSource.matches` and
/// `option` in `FormEngine`): one that throws or is late makes the submission `503` (try again) rather
/// than accept a value nobody confirmed, and a search answers `503` too.
public struct OptionSource: Sendable {
    /// The name descriptors give in `optionsFrom`.
    public let name: String
    /// The options whose titles match `query`, at most `limit` of them, best first.
    public let search: @Sendable (_ query: String, _ limit: Int) throws -> [Option]
    /// The option whose value is `value`, or nil when there is none: what makes a submitted value valid.
    public let lookup: @Sendable (_ value: String) throws -> Option?
    /// How long a call may take before it counts as failed.
    public var deadline: Duration

    /// A source called `name`.
    public init(
        _ name: String, deadline: Duration = .seconds(2),
        search: @escaping @Sendable (_ query: String, _ limit: Int) throws -> [Option],
        lookup: @escaping @Sendable (_ value: String) throws -> Option?
    ) {
        self.name = name
        self.search = search
        self.lookup = lookup
        self.deadline = deadline
    }
}
