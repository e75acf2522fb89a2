/// Every XLForm row type, plus Eureka's upload and label rows: one line each says what the row holds
/// and which control shows it. Adding a built-in type is a line here and its tests.
extension RowType {
    // Text inputs: the `autocomplete` each implies, so a browser can fill it in (WCAG 2.1 SC 1.3.5).
    public static let text = RowType("text", .text, .textInput)
    public static let name = RowType(
        "name", .text, .input(type: "text", autocomplete: "name", inputMode: nil, step: nil))
    public static let url = RowType(
        "url", .text, .input(type: "url", autocomplete: "url", inputMode: nil, step: nil), syntax: .webURL)
    public static let email = RowType(
        "email", .text, .input(type: "email", autocomplete: "email", inputMode: nil, step: nil), syntax: .email)
    public static let password = RowType(
        "password", .text, .input(type: "password", autocomplete: "current-password", inputMode: nil, step: nil),
        isSecret: true)
    public static let phone = RowType(
        "phone", .text, .input(type: "tel", autocomplete: "tel", inputMode: nil, step: nil))
    public static let twitter = RowType("twitter", .text, .textInput)
    public static let account = RowType(
        "account", .text, .input(type: "text", autocomplete: "username", inputMode: nil, step: nil))
    public static let zipCode = RowType(
        "zipCode", .text, .input(type: "text", autocomplete: "postal-code", inputMode: nil, step: nil))
    public static let textView = RowType("textView", .text, .textArea)

    // Numbers. `step=any`: the default step of 1 would make a browser reject 9.99 (HTML §4.10.5.3.7 "step").
    public static let number = RowType(
        "number", .decimal, .input(type: "number", autocomplete: nil, inputMode: "decimal", step: "any"))
    public static let integer = RowType(
        "integer", .integer, .input(type: "number", autocomplete: nil, inputMode: "numeric", step: "1"))
    public static let decimal = RowType(
        "decimal", .decimal, .input(type: "number", autocomplete: nil, inputMode: "decimal", step: "any"))

    // One choice from `options`, each kind as what it means on the web: a pushed list or a picker is a
    // select (with a filter when long), an inline picker a list box, an action sheet or an alert (a few
    // choices, all in sight) radio buttons, a segmented control radio buttons drawn as segments.
    public static let selectorPush = RowType("selectorPush", .option, .select(inline: false))
    public static let selectorPopover = RowType("selectorPopover", .option, .select(inline: false))
    public static let selectorActionSheet = RowType("selectorActionSheet", .option, .radios)
    public static let selectorAlertView = RowType("selectorAlertView", .option, .radios)
    public static let selectorLeftRight = RowType("selectorLeftRight", .option, .select(inline: false))
    public static let selectorPickerView = RowType("selectorPickerView", .option, .select(inline: false))
    public static let selectorPickerViewInline = RowType("selectorPickerViewInline", .option, .select(inline: true))
    public static let selectorSegmentedControl = RowType("selectorSegmentedControl", .option, .segmented)

    // Several choices from `options`: a check box each.
    public static let multipleSelector = RowType("multipleSelector", .options, .checkboxes)
    public static let multipleSelectorPopover = RowType("multipleSelectorPopover", .options, .checkboxes)

    // Dates, times and durations, each with its inline form (the same control on the web).
    public static let date = RowType("date", .date, .input(type: "date", autocomplete: nil, inputMode: nil, step: nil))
    public static let dateInline = RowType(
        "dateInline", .date, .input(type: "date", autocomplete: nil, inputMode: nil, step: nil))
    public static let time = RowType("time", .time, .input(type: "time", autocomplete: nil, inputMode: nil, step: nil))
    public static let timeInline = RowType(
        "timeInline", .time, .input(type: "time", autocomplete: nil, inputMode: nil, step: nil))
    public static let datetime = RowType(
        "datetime", .dateTime, .input(type: "datetime-local", autocomplete: nil, inputMode: nil, step: nil))
    public static let datetimeInline = RowType(
        "datetimeInline", .dateTime, .input(type: "datetime-local", autocomplete: nil, inputMode: nil, step: nil))
    public static let countDownTimer = RowType("countDownTimer", .duration, .duration)
    public static let countDownTimerInline = RowType("countDownTimerInline", .duration, .duration)

    // Booleans.
    public static let booleanCheck = RowType("booleanCheck", .bool, .checkbox(isSwitch: false))
    public static let booleanSwitch = RowType("booleanSwitch", .bool, .checkbox(isSwitch: true))

    // Numbers chosen by a control.
    public static let stepCounter = RowType("stepCounter", .decimal, .stepper)
    public static let slider = RowType("slider", .decimal, .range)

    // Display and action rows.
    public static let info = RowType("info", .none, .output)
    public static let button = RowType("button", .none, .action)

    // From Eureka: a file or image upload, and a read-only label.
    public static let upload = RowType("upload", .file, .file)
    public static let label = RowType("label", .none, .paragraph)

    /// Every built-in type, in the order above.
    public static let builtIns: [RowType] = [
        text, name, url, email, password, phone, twitter, account, zipCode, textView, number, integer, decimal,
        selectorPush, selectorPopover, selectorActionSheet, selectorAlertView, selectorLeftRight, selectorPickerView,
        selectorPickerViewInline, selectorSegmentedControl, multipleSelector, multipleSelectorPopover, date,
        dateInline, time, timeInline, datetime, datetimeInline, countDownTimer, countDownTimerInline, booleanCheck,
        booleanSwitch, stepCounter, slider, info, button, upload, label,
    ]
}
