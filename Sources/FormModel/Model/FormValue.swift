import Foundation

/// A row's value, typed by its row type. A row without a value holds `nil`, not a case of this enum.
public enum FormValue: Sendable, Hashable, CustomStringConvertible {
    /// Text rows.
    case text(String)
    /// `integer` rows.
    case integer(Int)
    /// `number`, `decimal`, `stepCounter` and `slider` rows: exact, parsed in a fixed locale.
    case decimal(Decimal)
    /// Boolean rows.
    case bool(Bool)
    /// Single selectors: the chosen option's value.
    case option(String)
    /// Multiple selectors: the chosen option values, each once, in the options' order.
    case options([String])
    /// `date` rows.
    case date(LocalDate)
    /// `time` rows.
    case time(LocalTime)
    /// `datetime` rows: an instant, read in the form's time zone.
    case dateTime(OffsetDateTime)
    /// Count-down timer rows, in seconds.
    case duration(Int)
    /// Upload rows.
    case file(UploadedFile)

    /// The value as text: ISO-8601 for dates and times (a date-time with its offset), option values
    /// for selectors.
    public var description: String {
        switch self {
        case .text(let text): text
        case .integer(let number): String(number)
        case .decimal(let number): "\(number)"
        case .bool(let flag): flag ? "true" : "false"
        case .option(let value): value
        case .options(let values): values.joined(separator: ",")
        case .date(let date): date.description
        case .time(let time): time.description
        case .dateTime(let dateTime): dateTime.description
        case .duration(let seconds): String(seconds)
        case .file(let file): file.filename
        }
    }

    /// The value as a control's `value` holds it: `description`, except that a date-time is its
    /// wall-clock reading alone, as HTML's `datetime-local` has no offset.
    public var inputText: String {
        if case .dateTime(let dateTime) = self { return dateTime.local.description }
        return description
    }

    /// Whether the value fits a row whose values are of `kind`.
    public func fits(_ kind: ValueKind) -> Bool {
        switch (self, kind) {
        case (.text, .text), (.integer, .integer), (.decimal, .decimal), (.bool, .bool), (.option, .option),
            (.options, .options), (.date, .date), (.time, .time), (.dateTime, .dateTime), (.duration, .duration),
            (.file, .file):
            true
        default: false
        }
    }
}

/// A file received from an upload row. Its bytes stay with the submission that brought them.
public struct UploadedFile: Sendable, Hashable {
    /// The name the browser gave, without any folder part.
    public let filename: String
    /// The media type the browser declared.
    public let contentType: String
    /// The size in bytes.
    public let size: Int
    /// The content.
    public let bytes: [UInt8]

    /// A received file.
    public init(filename: String, contentType: String, bytes: [UInt8]) {
        self.filename = filename
        self.contentType = contentType
        self.size = bytes.count
        self.bytes = bytes
    }
}
