/// Every XLForm row type, plus Eureka's upload and label rows, spelled as descriptors spell them.
///
/// The raw value is the descriptor's `type` string (`"selectorPush"`); `valueKind` says what a row
/// of the type holds.
public enum RowType: String, Sendable, Hashable, CaseIterable, Codable {
    // Text inputs.
    case text, name, url, email, password, phone, twitter, account, zipCode, textView
    // Numbers.
    case number, integer, decimal
    // Single choice from `options`.
    case selectorPush, selectorPopover, selectorActionSheet, selectorAlertView, selectorLeftRight
    case selectorPickerView, selectorPickerViewInline, selectorSegmentedControl
    // Several choices from `options`.
    case multipleSelector, multipleSelectorPopover
    // Dates, times and durations, each with its inline form.
    case date, dateInline, time, timeInline, datetime, datetimeInline, countDownTimer, countDownTimerInline
    // Booleans.
    case booleanCheck, booleanSwitch
    // Numbers chosen by a control.
    case stepCounter, slider
    // Display and action rows.
    case info, button
    // From Eureka: a file or image upload, and a read-only label.
    case upload, label

    /// What a row of this type holds.
    public var valueKind: ValueKind {
        switch self {
        case .text, .name, .url, .email, .password, .phone, .twitter, .account, .zipCode, .textView: .text
        case .integer: .integer
        case .number, .decimal, .stepCounter, .slider: .decimal
        case .selectorPush, .selectorPopover, .selectorActionSheet, .selectorAlertView, .selectorLeftRight,
            .selectorPickerView, .selectorPickerViewInline, .selectorSegmentedControl:
            .option
        case .multipleSelector, .multipleSelectorPopover: .options
        case .date, .dateInline: .date
        case .time, .timeInline: .time
        case .datetime, .datetimeInline: .dateTime
        case .countDownTimer, .countDownTimerInline: .duration
        case .booleanCheck, .booleanSwitch: .bool
        case .upload: .file
        case .info, .button, .label: .none
        }
    }

    /// Whether the row's value comes from its `options`.
    public var needsOptions: Bool { valueKind == .option || valueKind == .options }

    /// Whether a person can enter or change a value in the row.
    public var takesInput: Bool { valueKind != .none }

    /// Every type name, for the message that lists them when a descriptor names an unknown one.
    public static var allNames: [String] { allCases.map(\.rawValue) }
}

/// The kind of value a row holds, which decides decoding, validation and the payload's shape.
public enum ValueKind: String, Sendable, Hashable {
    /// A string.
    case text
    /// A whole number.
    case integer
    /// A decimal number, exact (money, measures).
    case decimal
    /// One option's value.
    case option
    /// A set of option values.
    case options
    /// A calendar date (no time, no zone).
    case date
    /// A time of day.
    case time
    /// A date and time of day in the form's time zone.
    case dateTime
    /// A length of time in seconds.
    case duration
    /// True or false; an unchecked checkbox is false.
    case bool
    /// An uploaded file.
    case file
    /// No value: display and action rows.
    case none
}
