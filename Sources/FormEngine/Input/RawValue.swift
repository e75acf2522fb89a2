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

    /// What kind of value it is, which `wrongType`'s message names.
    public var kind: Kind {
        switch self {
        case .text: .text
        case .number: .number
        case .bool: .boolean
        case .null: .null
        case .list: .list
        case .object: .object
        case .file: .file
        }
    }

    /// The kinds of value a client can send. Each is named in messages by a text of the message
    /// catalogue (`messageKey`), so a reader gets "a list" in English, "列表" in Chinese, and a
    /// descriptor's `messages` can name it in its own words.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case text, number, boolean, null, list, object, file

        /// The key of its name among `Messages`' texts: `sentText`, `sentList`….
        public var messageKey: String {
            switch self {
            case .text: "sentText"
            case .number: "sentNumber"
            case .boolean: "sentBoolean"
            case .null: "sentNull"
            case .list: "sentList"
            case .object: "sentObject"
            case .file: "sentFile"
            }
        }
    }
}
