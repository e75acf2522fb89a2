import FormModel

/// Writes ISO-8601 dates and times straight into a string's UTF-8, the same text `description` and
/// `isoDescription` give: conditions and payloads format every date of every submission, and the
/// padded, interpolated pieces cost several intermediate strings each.
struct ISOWriter {
    /// Room for the longest text written: `YYYY-MM-DDTHH:MM:SS+HH:MM` is 25 bytes.
    private static let capacity = 32
    /// 10 to the power of each width up to 4: the numbers that fit it.
    private static let limits = [1, 10, 100, 1000, 10000]
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private var count = 0

    private init(buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

    /// The text `body` writes, built in a buffer on the stack.
    static func string(_ body: (inout ISOWriter) -> Void) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var writer = ISOWriter(buffer: buffer)
            body(&writer)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<writer.count]), as: UTF8.self)
        }
    }

    /// One ASCII character.
    mutating func append(_ character: Unicode.Scalar) {
        precondition(count < buffer.count, "ISOWriter overflow")
        buffer[count] = UInt8(truncatingIfNeeded: character.value)
        count += 1
    }

    /// `number` (never negative here) in decimal, zero-padded to `width` digits.
    mutating func append(_ number: Int, width: Int) {
        precondition(number >= 0, "ISO fields are never negative")
        // The usual field fills its width exactly (`07`, `2026`): digits written from the right.
        if (1...4).contains(width), number < Self.limits[width], count + width <= buffer.count {
            var rest = number
            for position in stride(from: count + width - 1, through: count, by: -1) {
                buffer[position] = UInt8(truncatingIfNeeded: 0x30 + rest % 10)
                rest /= 10
            }
            count += width
            return
        }
        var digits = 1
        var divisor = 1
        while number / divisor >= 10 {
            digits += 1
            divisor *= 10
        }
        for _ in digits..<Swift.max(digits, width) { append("0") }
        var rest = number
        while divisor > 0 {
            append(Unicode.Scalar(UInt8(0x30 + rest / divisor)))
            rest %= divisor
            divisor /= 10
        }
    }

    /// `YYYY-MM-DD`, as `LocalDate.description`.
    mutating func append(_ date: LocalDate) {
        append(date.year, width: 4)
        append("-")
        append(date.month, width: 2)
        append("-")
        append(date.day, width: 2)
    }

    /// `HH:MM:SS`, or (as `LocalTime.description`) `HH:MM` when the seconds are zero and not `secondsAlways`.
    mutating func append(_ time: LocalTime, secondsAlways: Bool) {
        append(time.hour, width: 2)
        append(":")
        append(time.minute, width: 2)
        guard secondsAlways || time.second != 0 else { return }
        append(":")
        append(time.second, width: 2)
    }

    /// The date, `T`, then the time.
    mutating func append(_ dateTime: LocalDateTime, secondsAlways: Bool) {
        append(dateTime.date)
        append("T")
        append(dateTime.time, secondsAlways: secondsAlways)
    }

    /// `YYYY-MM-DDTHH:MM:SS±HH:MM`, or `…Z` at offset 0, as `OffsetDateTime.description`. An offset
    /// with seconds (a zone's local mean time before 1900, such as Paris's +00:09:21) has no ISO 8601
    /// spelling: the instant is written in UTC, exactly, rather than at an offset cut to the minute.
    mutating func append(_ dateTime: OffsetDateTime) {
        if !dateTime.offset.isMultiple(of: 60), let utc = dateTime.utc { return append(utc) }
        append(dateTime.local, secondsAlways: true)
        guard dateTime.offset != 0 else { return append("Z") }
        append(dateTime.offset < 0 ? "-" : "+")
        let minutes = abs(dateTime.offset) / 60
        append(minutes / 60, width: 2)
        append(":")
        append(minutes % 60, width: 2)
    }
}
