/// Why a value was refused: a machine-readable code plus what its message needs.
///
/// The code is stable API (`422 {"errors": [{"code": …}]}`); the message is localised by `Messages`.
public enum Problem: Error, Sendable, Hashable {
    // Validators and row settings.
    case required
    case regex
    case email
    case url
    case urlScheme(allowed: [String])
    case minLength(Int)
    case maxLength(Int)
    case minCount(Int)
    case maxCount(Int)
    case min(String)
    case max(String)
    case equalsRow(other: String)
    case predicate
    /// A Swift validator's own message.
    case custom(name: String, message: String)
    // Decoding.
    case notANumber
    /// A number a decimal row cannot keep exactly: too many significant digits, or too large or small.
    case inexactDecimal
    case notAnInteger
    /// A whole number beyond `Int`'s range.
    case integerOutOfRange
    case notADate
    case notATime
    case notADateTime
    /// A wall-clock time the form's zone skips (clocks going forward): no instant has it.
    case skippedDateTime(zone: String)
    case notADuration
    case notABoolean
    case unknownOption
    /// A row whose options come from an `OptionSource` that failed or was late to confirm the value:
    /// nothing is wrong with what was sent, so the submission is answered `503` (try again).
    case optionsUnavailable
    case sentMoreThanOnce
    /// A value of a kind the row cannot hold (a list for a text row); its message names the kind.
    case wrongType(sent: RawValue.Kind)
    case controlCharacters
    case notAFile
    case tooManyItems(Int)
    /// More items sent to a multivalued section than are read, empty ones included.
    case tooManyItemsSent(Int)
    /// An upload whose type or name matches none of the row's `accept` entries.
    case fileType(allowed: [String])
    /// An upload whose bytes are not of the type it claims.
    case fileContent(type: String)
    /// An upload larger than the server accepts (`serve --max-file`), in bytes.
    case fileTooLarge(limit: Int)
    /// Checking the submission took more steps than one request may (`EvaluationBudget`): some value is too
    /// long for the patterns and conditions that read it. About the whole form.
    case tooLongToCheck

    /// The stable code clients switch on.
    public var code: String {
        switch self {
        case .required: "required"
        case .regex: "regex"
        case .email: "email"
        case .url: "url"
        case .urlScheme: "urlScheme"
        case .minLength: "minLength"
        case .maxLength: "maxLength"
        case .minCount: "minCount"
        case .maxCount: "maxCount"
        case .min: "min"
        case .max: "max"
        case .equalsRow: "equalsRow"
        case .predicate: "predicate"
        case .custom(let name, _): "custom.\(name)"
        case .notANumber: "notANumber"
        case .inexactDecimal: "inexactDecimal"
        case .notAnInteger: "notAnInteger"
        case .integerOutOfRange: "integerOutOfRange"
        case .notADate: "notADate"
        case .notATime: "notATime"
        case .notADateTime: "notADateTime"
        case .skippedDateTime: "skippedDateTime"
        case .notADuration: "notADuration"
        case .notABoolean: "notABoolean"
        case .unknownOption: "unknownOption"
        case .optionsUnavailable: "optionsUnavailable"
        case .sentMoreThanOnce: "sentMoreThanOnce"
        case .wrongType: "wrongType"
        case .controlCharacters: "controlCharacters"
        case .notAFile: "notAFile"
        case .tooManyItems: "tooManyItems"
        case .tooManyItemsSent: "tooManyItemsSent"
        case .fileType: "fileType"
        case .fileContent: "fileContent"
        case .fileTooLarge: "fileTooLarge"
        case .tooLongToCheck: "tooLongToCheck"
        }
    }

    /// The key under which messages are looked up and overridden: the code without a custom name.
    var messageKey: String {
        if case .custom = self { return "custom" }
        return code
    }

    /// The `{placeholder}` values of the message, beyond `{name}`. `wrongType`'s `{sent}` is not among
    /// them: it is itself a text of the catalogue (`RawValue.Kind.messageKey`), which `Messages` fills in.
    var arguments: [String: String] {
        switch self {
        case .urlScheme(let allowed): ["schemes": allowed.map { $0 + ":" }.joined(separator: ", ")]
        case .minLength(let count), .maxLength(let count), .minCount(let count), .maxCount(let count),
            .tooManyItems(let count), .tooManyItemsSent(let count):
            ["count": String(count)]
        case .min(let bound), .max(let bound): ["bound": bound]
        case .equalsRow(let other): ["other": other]
        case .fileType(let allowed): ["types": allowed.joined(separator: ", ")]
        case .fileContent(let type): ["type": type]
        case .fileTooLarge(let limit): ["size": Self.sizeText(limit)]
        case .skippedDateTime(let zone): ["zone": zone]
        default: [:]
        }
    }
}

extension Problem {
    /// `limit` bytes as a person reads them: `1 MB`, `512 KB`, `1500 B` (binary multiples, as
    /// `serve --max-file 1m` means 1 MiB). The units are the same in every language.
    public static func sizeText(_ limit: Int) -> String {
        for (shift, unit) in [(30, "GB"), (20, "MB"), (10, "KB")] where limit >= 1 << shift && limit % (1 << shift) == 0
        {
            return "\(limit >> shift) \(unit)"
        }
        return "\(limit) B"
    }
}

/// One refused value: which field, why, and the message for a person.
public struct FieldError: Sendable, Hashable {
    /// The field: a row's tag, or `multivaluedTag[position]` for a multivalued section's item.
    public let tag: String
    /// Why, as a stable code.
    public let code: String
    /// The localised message.
    public let message: String
    /// The row index in `CompiledForm.rows`, for a row's error.
    public let row: Int?
    /// The section index, for an error on a multivalued section or one of its items.
    public let section: Int?
    /// The item's position, for an error on one item of a multivalued section.
    public let position: Int?
    /// The language `message` is in: the form's `locale` for its own texts (a validator's `message`, a
    /// row's `requireMsg`), else the language of the built-in or descriptor text chosen for the reader.
    /// A page in another language marks the message with it (`lang`), so a screen reader speaks it right.
    public let language: String
}
