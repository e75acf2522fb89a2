import Foundation
import Testing

@testable import HTTPServer

#if canImport(Glibc)
    import Glibc
#endif

/// `HTTPDate`: IMF-fixdate written by hand, as glibc's `gmtime_r` and `strftime` write it.
@Suite struct HTTPDateTests {
    /// What `gmtime_r` and `strftime` in the C locale make of `seconds`.
    private static func libc(_ seconds: Int) -> String {
        var time = seconds
        var parts = tm()
        gmtime_r(&time, &parts)
        var text = [CChar](repeating: 0, count: 64)
        let count = strftime(&text, text.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
        return String(decoding: text.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func written(_ seconds: Int) -> String? {
        var bytes = [UInt8](repeating: 0, count: HTTPDate.count)
        guard bytes.withUnsafeMutableBytes({ HTTPDate.write(seconds, into: $0) }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func matchesTheCLibraryOnEdgesOfDaysMonthsYearsAndCenturies() {
        let edges = [
            0, -1, -86_400, -86_401, 59, 86_399, 86_400,
            951_782_399, 951_782_400, 951_868_800,  // 2000-02-28 23:59:59, 2000-02-29, 2000-03-01
            4_107_542_400, 4_107_456_000,  // 2100-03-01 and 2100-02-28: 2100 is no leap year
            1_798_761_599, 1_798_761_600,  // the last second of 2026 and the first of 2027
            -30_610_224_000, 253_402_300_799,  // 1000-01-01 00:00:00, 9999-12-31 23:59:59
        ]
        for seconds in edges { #expect(Self.written(seconds) == Self.libc(seconds), "\(seconds)") }
        // `strftime` writes years before 1000 with fewer digits; a date field has four.
        #expect(Self.written(-62_135_596_800) == "Mon, 01 Jan 0001 00:00:00 GMT")
        #expect(Self.written(-62_167_219_200) == "Sat, 01 Jan 0000 00:00:00 GMT")
        #expect(Self.written(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(Self.written(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")  // RFC 9110's example
    }

    @Test func matchesTheCLibraryOnEveryDayOfFourCenturiesAndRandomSeconds() {
        var generator = SystemRandomNumberGenerator()
        // One second of every day from 1900 to 2300: every weekday, leap rule and month length.
        for day in stride(from: -25_567, to: 120_000, by: 1) {
            let seconds = day * 86_400 + Int.random(in: 0..<86_400, using: &generator)
            guard Self.written(seconds) == Self.libc(seconds) else {
                Issue.record("\(seconds): \(Self.written(seconds) ?? "nil") against \(Self.libc(seconds))")
                return
            }
        }
        for _ in 0..<10_000 {
            let seconds = Int.random(in: -30_610_224_000...253_402_300_799, using: &generator)
            #expect(Self.written(seconds) == Self.libc(seconds), "\(seconds)")
        }
    }

    /// The cached value is the current second's, written as `write` writes it.
    @Test func theCachedDateIsTheCurrentSeconds() {
        for _ in 0..<3 {
            let before = time(nil)
            let (second, text) = HTTPDate.withCurrent { second, text in (second, text.map { String(cString: $0) }) }
            let after = time(nil)
            #expect(before <= second && second <= after)
            #expect(text == Self.written(second))
            usleep(400_000)
        }
    }

    @Test func refusesYearsThatTakeOtherThanFourDigits() {
        var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: HTTPDate.count)
        #expect(!bytes.withUnsafeMutableBytes { HTTPDate.write(253_402_300_800, into: $0) })  // 10000-01-01
        #expect(!bytes.withUnsafeMutableBytes { HTTPDate.write(-62_167_219_201, into: $0) })  // year -1
        #expect(bytes.allSatisfy { $0 == UInt8(ascii: "x") })
    }
}
