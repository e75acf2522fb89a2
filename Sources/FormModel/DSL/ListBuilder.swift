/// The result builder of the Swift DSL: it collects the sections of a `FormDefinition`, the rows of a
/// `SectionDefinition` and the options of a selector row, with `if`, `if`/`else`, `switch`, `for`,
/// `if #available` and optional values.
///
/// ```swift
/// SectionDefinition("Contact") {
///     RowDefinition(.email, "email", title: "Email")
///     if askPhone { RowDefinition(.phone, "phone", title: "Phone") }
///     for day in days { RowDefinition(.booleanCheck, day, title: day.capitalized) }
///     optionalRow  // a `RowDefinition?`: nothing when nil
/// }
/// ```
@resultBuilder
public enum ListBuilder<Element> {
    /// One element.
    public static func buildExpression(_ element: Element) -> [Element] { [element] }

    /// An optional element: nothing when nil.
    public static func buildExpression(_ element: Element?) -> [Element] { element.map { [$0] } ?? [] }

    /// Elements made elsewhere, in order.
    public static func buildExpression(_ elements: [Element]) -> [Element] { elements }

    /// The statements of a block, in order.
    public static func buildBlock(_ parts: [Element]...) -> [Element] { parts.flatMap { $0 } }

    /// An `if` without `else`: nothing when the condition is false.
    public static func buildOptional(_ part: [Element]?) -> [Element] { part ?? [] }

    /// The first branch of an `if`/`else` or a `switch`.
    public static func buildEither(first part: [Element]) -> [Element] { part }

    /// The second branch of an `if`/`else` or a `switch`.
    public static func buildEither(second part: [Element]) -> [Element] { part }

    /// A `for` loop: every pass's elements, in order.
    public static func buildArray(_ parts: [[Element]]) -> [Element] { parts.flatMap { $0 } }

    /// An `if #available` block.
    public static func buildLimitedAvailability(_ part: [Element]) -> [Element] { part }
}

extension ListBuilder where Element == SectionDefinition {
    /// A row written among the sections: each run of such rows is gathered into one untitled section.
    public static func buildExpression(_ row: RowDefinition) -> [SectionDefinition] {
        [SectionDefinition(looseRows: [row])]
    }

    /// An optional row among the sections: nothing when nil.
    public static func buildExpression(_ row: RowDefinition?) -> [SectionDefinition] {
        row.map { [SectionDefinition(looseRows: [$0])] } ?? []
    }
}

extension ListBuilder where Element == Option {
    /// An option given as its value, whose title is the value too.
    public static func buildExpression(_ value: String) -> [Option] { [Option(value)] }
}
