import FormModel

/// A stored record that does not fit its form any more: a value of another type, an option the form
/// no longer offers, more items than a section takes. Editing it would lose or change data, so the
/// record is refused whole, naming the first value that does not fit.
public struct StoredRecordError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The record's key (a row's tag or a multivalued tag); empty when the record is not a JSON object.
    public let tag: String
    /// What is wrong, in English: the record is the application's, not the reader's.
    public let message: String
    /// The value that does not fit, as JSON text (the start of the record, as a JSON string, when it
    /// cannot be read), cut at `valueLimit` characters: what to look for in the application's data.
    public let value: String

    /// The most characters of `value` kept: enough to find it, not a whole record in every log line.
    public static let valueLimit = 200

    /// An error on `tag`'s `value` (`RawValue.jsonText`); empty `tag`: the record as a whole.
    init(tag: String, message: String, value: String) {
        self.tag = tag
        self.message = message
        self.value = value.count > Self.valueLimit ? value.prefix(Self.valueLimit) + "…" : value
    }

    /// What is wrong and where, in one line: what a log says.
    public var description: String {
        tag.isEmpty
            ? "the stored record cannot be read: \(message) (it begins \(value))"
            : "the stored value of '\(tag)' does not fit the form: \(message) (it holds \(value))"
    }
}
