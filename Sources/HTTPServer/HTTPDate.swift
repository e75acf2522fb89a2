#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTTP date as a `Date` field carries it, in IMF-fixdate form (RFC 9110 §5.6.7):
/// `Sun, 06 Nov 1994 08:49:37 GMT`, always 29 bytes.
///
/// Written by hand, and once a second per thread (`withCurrent`), for the responses built per
/// request and the reused ones (`ResponseTemplate`): libmicrohttpd would otherwise make one for each
/// of them with `gmtime_r`, which takes glibc's time-zone lock, a global both workers would write.
/// A `PreparedResponse` (a static file, a descriptor) is sent by many requests at once and carries
/// no date of its own: libmicrohttpd dates each sending.
enum HTTPDate {
    /// The length of every date written: four-digit years only.
    static let count = 29

    /// Writes the date of `seconds` since 1970-01-01 (UTC) into the first `count` bytes of `buffer`;
    /// returns false, writing nothing, for a year outside 0–9999, which IMF-fixdate cannot show.
    static func write(_ seconds: Int, into buffer: UnsafeMutableRawBufferPointer) -> Bool {
        precondition(buffer.count >= count, "a date needs 29 bytes")
        // Whole days and the second of the day, rounded down for dates before 1970.
        let days = seconds >= 0 ? seconds / 86_400 : (seconds + 1) / 86_400 - 1
        let second = seconds - days * 86_400
        let (year, month, day) = civil(days: days)
        guard (0...9999).contains(year) else { return false }
        // 1970-01-01 was a Thursday: day 0 is weekday 4, counting Sunday as 0.
        let weekday = (days % 7 + 11) % 7
        var index = 0
        func put(_ byte: UInt8) {
            buffer[index] = byte
            index += 1
        }
        func put(_ names: StaticString, _ which: Int) {
            for offset in 0..<3 { put(names.utf8Start[which * 3 + offset]) }
        }
        func put(digits value: Int, count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            for _ in 0..<count {
                put(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
        }
        put("SunMonTueWedThuFriSat", weekday)
        put(UInt8(ascii: ","))
        put(UInt8(ascii: " "))
        put(digits: day, count: 2)
        put(UInt8(ascii: " "))
        put("JanFebMarAprMayJunJulAugSepOctNovDec", month - 1)
        put(UInt8(ascii: " "))
        put(digits: year, count: 4)
        put(UInt8(ascii: " "))
        put(digits: second / 3600, count: 2)
        put(UInt8(ascii: ":"))
        put(digits: second / 60 % 60, count: 2)
        put(UInt8(ascii: ":"))
        put(digits: second % 60, count: 2)
        for byte in " GMT".utf8 { put(byte) }
        return true
    }

    /// The proleptic Gregorian year, month (1–12) and day (1–31) of `days` since 1970-01-01, by
    /// Howard Hinnant's `civil_from_days`: eras of 400 years, each year counted from March, so the
    /// leap day falls last. `LocalDate(daysSince1970:)` in FormModel does the same for form values;
    /// HTTPServer depends on no form module, so the dozen lines stand in both.
    static func civil(days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468  // days since 0000-03-01
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension HTTPDate {
    /// One thread's `Date` value: the second it shows and its text, NUL-terminated for libmicrohttpd.
    struct Cached: ~Copyable {
        var second = -1
        var text = [CChar](repeating: 0, count: HTTPDate.count + 1)
    }

    /// The cached value per thread (`Shards`): the workers never wait for one another to read it.
    static let cache = Shards { _ in Cached() }

    /// Calls `body` with the current second and its date as a C string, written anew only when the
    /// second has changed since this thread last asked. Nil (no field) for a clock outside years 0–9999.
    static func withCurrent<Result: Sendable>(_ body: (Int, UnsafePointer<CChar>?) -> Result) -> Result {
        cache.withLock { cached in
            let now = time(nil)
            if now != cached.second {
                let written = cached.text.withUnsafeMutableBytes { write(now, into: $0) }
                cached.second = written ? now : -1
            }
            guard cached.second == now else { return body(now, nil) }
            return cached.text.withUnsafeBufferPointer { body(now, $0.baseAddress) }
        }
    }
}
