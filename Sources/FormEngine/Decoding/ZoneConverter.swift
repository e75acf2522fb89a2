import FormModel
import Foundation

/// Reads date-times in the form's time zone: a local `2026-11-22T14:30` as it is, and an instant
/// with an offset (`…Z`, `…+01:00`) converted into the form's zone, so every value compares alike.
struct ZoneConverter: Sendable {
    let timeZone: TimeZone
    /// The zone's offsets, shared by every request of the form.
    let offsets: ZoneOffsets

    /// A converter for the IANA zone `identifier` (checked at load); UTC when unknown.
    init(identifier: String) {
        timeZone = TimeZone(identifier: identifier) ?? TimeZone(secondsFromGMT: 0)!
        offsets = ZoneOffsets(zone: timeZone)
    }

    /// The local date-time `text` names in the form's zone, or nil.
    func localDateTime(_ text: String) -> LocalDateTime? {
        if let local = LocalDateTime(iso: text) { return local }
        // An offset at the end: `Z` or `±HH:MM`.
        var body = Substring(text)
        let offset: Int
        if body.hasSuffix("Z") || body.hasSuffix("z") {
            body = body.dropLast()
            offset = 0
        } else if body.count > 6, let sign = body.dropLast(5).last, sign == "+" || sign == "-",
            let time = LocalTime(iso: body.suffix(5))
        {
            offset = (sign == "+" ? 1 : -1) * (time.hour * 3600 + time.minute * 60)
            body = body.dropLast(6)
        } else {
            return nil
        }
        guard let local = LocalDateTime(iso: body) else { return nil }
        return convert(local, fromOffset: offset)
    }

    private func convert(_ local: LocalDateTime, fromOffset offset: Int) -> LocalDateTime? {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(secondsFromGMT: 0)!
        let parts = DateComponents(
            year: local.date.year, month: local.date.month, day: local.date.day, hour: local.time.hour,
            minute: local.time.minute, second: local.time.second)
        guard let instant = utc.date(from: parts)?.addingTimeInterval(TimeInterval(-offset)) else { return nil }
        var zoned = Calendar(identifier: .gregorian)
        zoned.timeZone = timeZone
        let out = zoned.dateComponents([.year, .month, .day, .hour, .minute, .second], from: instant)
        guard let year = out.year, let month = out.month, let day = out.day,
            let date = LocalDate(year: year, month: month, day: day),
            let time = LocalTime(hour: out.hour ?? 0, minute: out.minute ?? 0, second: out.second ?? 0)
        else { return nil }
        return LocalDateTime(date: date, time: time)
    }
}
