/// A calendar date without a time or a zone: `2026-11-22` (ISO-8601, HTML's date input).
public struct LocalDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The year, 1 to 9999.
    public let year: Int
    /// The month, 1 to 12.
    public let month: Int
    /// The day of the month, 1 to the month's length.
    public let day: Int

    /// A date, or nil when the parts do not name a real day.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1,
            day <= LocalDate.daysIn(month: month, year: year)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD`.
    public init?(iso text: some StringProtocol) {
        guard let date = ISOText.scan(text, ISOText.date) else { return nil }
        self = date
    }

    /// Parses `YYYY-MM-DD`. The `String` overload: a generic initialiser called from another module runs
    /// unspecialised, instantiating generic metadata on every call.
    public init?(iso text: String) {
        guard let date = ISOText.scan(text, ISOText.date) else { return nil }
        self = date
    }

    /// `YYYY-MM-DD`.
    public var description: String { "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))" }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// A time of day: `13:45` or `13:45:30` (ISO-8601, HTML's time input).
public struct LocalTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// 0 to 23.
    public let hour: Int
    /// 0 to 59.
    public let minute: Int
    /// 0 to 59.
    public let second: Int

    /// A time, or nil when out of range.
    public init?(hour: Int, minute: Int, second: Int = 0) {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// Parses `HH:MM`, `HH:MM:SS` or `HH:MM:SS.fff` (fractions are dropped).
    public init?(iso text: some StringProtocol) {
        guard let time = ISOText.scan(text, ISOText.time) else { return nil }
        self = time
    }

    /// Parses `HH:MM`, `HH:MM:SS` or `HH:MM:SS.fff`: the `String` overload, specialised (see `LocalDate`).
    public init?(iso text: String) {
        guard let time = ISOText.scan(text, ISOText.time) else { return nil }
        self = time
    }

    /// `HH:MM`, or `HH:MM:SS` when there are seconds.
    public var description: String {
        "\(pad(hour, 2)):\(pad(minute, 2))" + (second == 0 ? "" : ":\(pad(second, 2))")
    }

    /// Seconds since midnight.
    public var secondsOfDay: Int { hour * 3600 + minute * 60 + second }

    public static func < (lhs: LocalTime, rhs: LocalTime) -> Bool { lhs.secondsOfDay < rhs.secondsOfDay }
}

/// A date and time of day with no zone of its own (HTML's `datetime-local`); the form's time zone
/// gives it an instant.
public struct LocalDateTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The date.
    public let date: LocalDate
    /// The time of day.
    public let time: LocalTime

    /// A date and time.
    public init(date: LocalDate, time: LocalTime) {
        self.date = date
        self.time = time
    }

    /// Parses `YYYY-MM-DDTHH:MM[:SS]` (a space may stand for the `T`, as HTML allows).
    public init?(iso text: some StringProtocol) {
        guard let dateTime = ISOText.scan(text, ISOText.dateTime) else { return nil }
        self = dateTime
    }

    /// Parses `YYYY-MM-DDTHH:MM[:SS]`: the `String` overload, specialised (see `LocalDate`).
    public init?(iso text: String) {
        guard let dateTime = ISOText.scan(text, ISOText.dateTime) else { return nil }
        self = dateTime
    }

    /// `YYYY-MM-DDTHH:MM[:SS]`.
    public var description: String { "\(date)T\(time)" }

    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        (lhs.date, lhs.time) < (rhs.date, rhs.time)
    }
}

private func pad(_ number: Int, _ width: Int) -> String {
    let text = String(number)
    return String(repeating: "0", count: max(0, width - text.count)) + text
}

extension Character {
    /// `0`–`9` only; `Character.isNumber` also accepts other scripts' digits and fractions.
    public var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
