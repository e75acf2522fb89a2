import FormModel

/// One value as a client sent it, before it is decoded by its row's type.
///
/// Form posts send only text (and files); JSON bodies send typed values, which decoding accepts where
/// they fit (`true` for a boolean row, `12` for an integer row) and refuses where they do not.
public enum RawValue: Sendable, Hashable {
    /// Text: every value of a form post, and JSON strings.
    case text(String)
    /// A JSON number, with its source text so decimals stay exact.
    case number(String)
    /// A JSON `true` or `false`.
    case bool(Bool)
    /// A JSON `null`: no value.
    case null
    /// A JSON array (a multiple selection, a multivalued section's items).
    case list([RawValue])
    /// A JSON object: never a row's value; kept so the error can say what was sent.
    case object
    /// A file from a multipart upload.
    case file(UploadedFile)

    /// What the value is, for messages: `text`, `a number`, `a list`….
    var kindName: String {
        switch self {
        case .text: "text"
        case .number: "a number"
        case .bool: "true or false"
        case .null: "null"
        case .list: "a list"
        case .object: "an object"
        case .file: "a file"
        }
    }
}
