/// The ISO-8601 / HTML date and time formats, scanned over UTF-8 bytes at fixed positions: these
/// parse every submitted date, so they avoid `split` and `Character` work.
enum ISOText {
    /// Runs `parse` over the UTF-8 bytes of `text`.
    static func scan<T>(_ text: some StringProtocol, _ parse: (UnsafeBufferPointer<UInt8>) -> T?) -> T? {
        var copy = String(text)
        return copy.withUTF8 { parse($0) }
    }

    /// `YYYY-MM-DD`, exactly.
    static func date(_ bytes: UnsafeBufferPointer<UInt8>) -> LocalDate? {
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = number(bytes, 0, 4), let month = number(bytes, 5, 2), let day = number(bytes, 8, 2)
        else { return nil }
        return LocalDate(year: year, month: month, day: day)
    }

    /// `HH:MM`, `HH:MM:SS` or `HH:MM:SS.fff…` (the fraction is dropped).
    static func time(_ bytes: UnsafeBufferPointer<UInt8>) -> LocalTime? {
        guard bytes.count == 5 || bytes.count >= 8, bytes[2] == UInt8(ascii: ":"),
            let hour = number(bytes, 0, 2), let minute = number(bytes, 3, 2)
        else { return nil }
        var second = 0
        if bytes.count >= 8 {
            guard bytes[5] == UInt8(ascii: ":"), let value = number(bytes, 6, 2) else { return nil }
            second = value
            if bytes.count > 8 {
                guard bytes[8] == UInt8(ascii: "."), bytes.count > 9, number(bytes, 9, bytes.count - 9) != nil else {
                    return nil
                }
            }
        }
        return LocalTime(hour: hour, minute: minute, second: second)
    }

    /// A date, `T` or a space, then a time.
    static func dateTime(_ bytes: UnsafeBufferPointer<UInt8>) -> LocalDateTime? {
        guard bytes.count > 11, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "),
            let date = date(UnsafeBufferPointer(rebasing: bytes[0..<10])),
            let time = time(UnsafeBufferPointer(rebasing: bytes[11...]))
        else { return nil }
        return LocalDateTime(date: date, time: time)
    }

    /// A date-time, then an optional offset from UTC (ISO 8601 / RFC 3339): `Z`, `±HH:MM`, `±HHMM` or
    /// `±HH`. The offset is in seconds east of UTC, nil when the text has none.
    static func dateTimeWithOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> (LocalDateTime, offset: Int?)? {
        guard let last = bytes.last else { return nil }
        if last == UInt8(ascii: "Z") || last == UInt8(ascii: "z") {
            return dateTime(UnsafeBufferPointer(rebasing: bytes.dropLast())).map { ($0, 0) }
        }
        // A sign can only follow the time: the date before position 11 has its own `-`.
        guard bytes.count > 13,
            let sign = bytes[13...].firstIndex(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") })
        else { return dateTime(bytes).map { ($0, nil) } }
        let digits = UnsafeBufferPointer(rebasing: bytes[(sign + 1)...])
        let hours: Int?
        let minutes: Int?
        switch digits.count {
        case 2: (hours, minutes) = (number(digits, 0, 2), 0)
        case 4: (hours, minutes) = (number(digits, 0, 2), number(digits, 2, 2))
        case 5 where digits[2] == UInt8(ascii: ":"): (hours, minutes) = (number(digits, 0, 2), number(digits, 3, 2))
        default: return nil
        }
        guard let hours, let minutes, hours <= 23, minutes <= 59,
            let local = dateTime(UnsafeBufferPointer(rebasing: bytes[..<sign]))
        else { return nil }
        let offset = hours * 3600 + minutes * 60
        return (local, bytes[sign] == UInt8(ascii: "-") ? -offset : offset)
    }

    /// The decimal number in `count` ASCII digits from `start`; nil on anything else. At most 9 digits
    /// are read as a number, which no field here needs more of.
    static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        guard count > 0, start + count <= bytes.count else { return nil }
        var value = 0
        for index in start..<(start + count) {
            let digit = Int(bytes[index]) - 0x30
            guard (0...9).contains(digit) else { return nil }
            if index - start < 9 { value = value * 10 + digit }
        }
        return value
    }
}
