import Foundation
import Testing

@testable import FormEngine

/// `ZoneOffsets` remembers an offset until the zone's next transition: it must give what ICU gives for
/// every instant, in any order of asking, across daylight-saving changes and changes of standard time.
@Suite struct ZoneOffsetsTests {
    /// Zones with ordinary DST, half-hour DST, DST abolished, a skipped day, no DST, and a fixed offset.
    static let zones = [
        "Europe/Paris", "America/New_York", "Australia/Lord_Howe", "America/Sao_Paulo", "Pacific/Apia",
        "Asia/Kolkata", "Etc/GMT+5", "UTC",
    ]

    @Test(arguments: zones)
    func agreesWithTheZoneHourByHourAcrossYears(identifier: String) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        let offsets = ZoneOffsets(zone: zone)
        // 2010 to 2031 every 7 hours and 13 minutes: every transition of those years is crossed, and
        // instants fall on both sides of each, near it and far from it.
        var seconds = 1_262_304_000.0
        while seconds < 1_956_528_000 {
            let expected = zone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds))
            #expect(offsets.secondsFromGMT(at: seconds) == expected, "\(identifier) at \(seconds)")
            seconds += 7 * 3600 + 13 * 60
        }
    }

    @Test(arguments: zones)
    func agreesWhenAskedOutOfOrder(identifier: String) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        let offsets = ZoneOffsets(zone: zone)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            // 1900 to 2100: before the zone's rules began, and past its last one.
            let seconds = Double(Int.random(in: -2_208_988_800...4_102_444_800, using: &generator))
            let expected = zone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds))
            #expect(offsets.secondsFromGMT(at: seconds) == expected, "\(identifier) at \(seconds)")
        }
    }

    @Test func theSecondsAroundATransitionTakeTheirOwnOffsets() throws {
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        let offsets = ZoneOffsets(zone: paris)
        // 2026-03-29 01:00:00Z: clocks go from 02:00 CET to 03:00 CEST.
        let change = 1_774_746_000.0
        #expect(offsets.secondsFromGMT(at: change - 1) == 3600)
        #expect(offsets.secondsFromGMT(at: change) == 7200)
        #expect(offsets.secondsFromGMT(at: change - 3600) == 3600)
        #expect(offsets.secondsFromGMT(at: change + 1) == 7200)
    }
}
