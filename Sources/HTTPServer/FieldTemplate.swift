/// A header field of a `ResponseTemplate` whose value changes in one place: `prefix`, a slot of
/// `slotCount` bytes, `suffix`. A new reader's cookie is one: `fw_csrf=<nonce>; Path=/forms; ...`.
public struct FieldTemplate: Sendable {
    /// The field's name.
    public let name: String
    let prefix: [UInt8]
    let slotCount: Int
    let suffix: [UInt8]

    /// The field `name: prefix<slotCount bytes>suffix`.
    public init(name: String, prefix: String, slotCount: Int, suffix: String) {
        precondition(slotCount >= 0, "a slot cannot have a negative size")
        self.name = name
        self.prefix = Array(prefix.utf8)
        self.slotCount = slotCount
        self.suffix = Array(suffix.utf8)
    }
}
