/// The fields of one submission by name, each with every value sent under that name, in order.
///
/// A form post repeats a name for a multiple selection or a multivalued section's items
/// (`tags=a&tags=b`); a JSON body sends one value per key, a list where there are several.
///
/// ```swift
/// var fields = SubmittedFields()
/// fields.append("title", .text("Lunch"))
/// fields.append("guests", .text("4"))
/// ```
public struct SubmittedFields: Sendable, Hashable {
    /// The values sent under each name, in the order they came.
    public private(set) var values: [String: [RawValue]] = [:]
    /// Whether the fields came as JSON (one value per key; lists are explicit).
    public var isJSON = false

    /// No fields.
    public init() {
        // Room for a typical form's fields, so appending does not rehash as they arrive.
        values.reserveCapacity(16)
    }

    /// Adds a value under `name`, after any sent before under the same name.
    public mutating func append(_ name: String, _ value: RawValue) {
        values[name, default: []].append(value)
    }

    /// Every value sent under `name`; empty when the name was not sent.
    public subscript(name: String) -> [RawValue] { values[name] ?? [] }

    /// Whether anything was sent under `name` (an unchecked checkbox sends nothing).
    public func contains(_ name: String) -> Bool { values[name] != nil }
}
