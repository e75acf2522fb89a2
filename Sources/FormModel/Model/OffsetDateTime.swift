/// One instant as a clock `offset` seconds ahead of UTC shows it: `2026-10-25T02:45:00+02:00`.
///
/// A `datetime` row's value. The form's time zone gives each instant its wall-clock reading and the
/// offset in force at that instant, so the reading is what a person in that zone sees, and the offset
/// keeps the instant: the two 02:30s of the night the clocks go back are two values, ordered as the
/// instants are.
public struct OffsetDateTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The wall-clock reading.
    public let local: LocalDateTime
    /// Seconds east of UTC: 7200 for `+02:00`.
    public let offset: Int

    /// The instant a clock `offset` seconds ahead of UTC shows as `local`.
    public init(local: LocalDateTime, offset: Int) {
        self.local = local
        self.offset = offset
    }

    /// The instant `seconds` after 1970-01-01T00:00:00Z as a clock `offset` seconds ahead of UTC shows
    /// it; nil when that reading falls outside the years 1 to 9999.
    public init?(secondsSince1970 seconds: Int, offset: Int) {
        let shifted = seconds + offset
        // Floor division: an instant before 1970 still falls in the day that contains it.
        let days = shifted >= 0 ? shifted / 86_400 : -((-shifted + 86_399) / 86_400)
        let rest = shifted - days * 86_400
        guard let date = LocalDate(daysSince1970: days),
            let time = LocalTime(hour: rest / 3600, minute: rest / 60 % 60, second: rest % 60)
        else { return nil }
        self.init(local: LocalDateTime(date: date, time: time), offset: offset)
    }

    /// The date of the reading.
    public var date: LocalDate { local.date }
    /// The time of day of the reading.
    public var time: LocalTime { local.time }

    /// The instant, in seconds since 1970-01-01T00:00:00Z.
    public var secondsSince1970: Int { local.date.daysSince1970 * 86_400 + local.time.secondsOfDay - offset }

    /// The same instant read in UTC (offset 0); nil in the hours past either end of years 1 to 9999.
    public var utc: OffsetDateTime? {
        offset == 0 ? self : OffsetDateTime(secondsSince1970: secondsSince1970, offset: 0)
    }

    /// `YYYY-MM-DDTHH:MM:SS±HH:MM`, or `…Z` at offset 0: ISO 8601 with seconds always written, as the
    /// payload writes it.
    public var description: String {
        // An offset with seconds (local mean time, before 1900) has no ISO 8601 spelling: UTC, exactly.
        if !offset.isMultiple(of: 60), let utc { return utc.description }
        let time = "\(pad(local.time.hour)):\(pad(local.time.minute)):\(pad(local.time.second))"
        guard offset != 0 else { return "\(local.date)T\(time)Z" }
        let minutes = abs(offset) / 60
        return "\(local.date)T\(time)\(offset < 0 ? "-" : "+")\(pad(minutes / 60)):\(pad(minutes % 60))"
    }

    /// Earlier instants first; one instant read at two offsets (which one zone never gives) by offset.
    public static func < (lhs: OffsetDateTime, rhs: OffsetDateTime) -> Bool {
        (lhs.secondsSince1970, lhs.offset) < (rhs.secondsSince1970, rhs.offset)
    }
}

private func pad(_ number: Int) -> String { number < 10 ? "0\(number)" : String(number) }
