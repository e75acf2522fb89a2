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
    /// The values sent under one name. Nearly every name is sent once, and a lone value is kept
    /// without an array of its own: a submission allocates one array per repeated name, not per field.
    enum Sent: Sendable, Hashable {
        case one(RawValue)
        case many([RawValue])

        /// How many values were sent.
        var count: Int {
            switch self {
            case .one: 1
            case .many(let values): values.count
            }
        }

        /// The first value sent.
        var first: RawValue? {
            switch self {
            case .one(let value): value
            case .many(let values): values.first
            }
        }

        /// Every value, in order.
        var all: [RawValue] {
            switch self {
            case .one(let value): [value]
            case .many(let values): values
            }
        }
    }

    private var sent: [String: Sent] = [:]
    /// Whether the fields came as JSON (one value per key; lists are explicit).
    public var isJSON = false

    /// No fields.
    public init() {
        // Room for a typical form's fields, so appending does not rehash as they arrive.
        sent.reserveCapacity(16)
    }

    /// Adds a value under `name`, after any sent before under the same name.
    public mutating func append(_ name: consuming String, _ value: consuming RawValue) {
        // Changed in place through the dictionary's accessor: one hash of `name`, new or repeated.
        Self.add(value, to: &sent[name])
    }

    private static func add(_ value: consuming RawValue, to slot: inout Sent?) {
        switch slot {
        case nil: slot = .one(value)
        case .one(let earlier)?: slot = .many([earlier, value])
        case .many(var values)?:
            // Moved out before growing, so the array is not copied for being referenced twice.
            slot = nil
            values.append(value)
            slot = .many(values)
        }
    }

    /// Makes `value` the one value under `name`, in place of whatever was sent.
    public mutating func replace(_ name: String, with value: RawValue) { sent[name] = .one(value) }

    /// Every value sent under `name`; empty when the name was not sent.
    public subscript(name: String) -> [RawValue] { sent[name]?.all ?? [] }

    /// What was sent under `name`, without building an array for a single value; nil when nothing was.
    func values(named name: String) -> Sent? { sent[name] }

    /// The first value sent under `name`.
    public func first(_ name: String) -> RawValue? { sent[name]?.first }

    /// How many values were sent under `name`, without building an array of them.
    public func count(of name: String) -> Int { sent[name]?.count ?? 0 }

    /// Whether anything was sent under `name` (an unchecked checkbox sends nothing).
    public func contains(_ name: String) -> Bool { sent[name] != nil }
}
