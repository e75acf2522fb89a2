import FormModel
import Foundation

/// Reads date-times in the form's time zone (`OffsetDateTime.read`): an instant sent with an offset
/// (`…Z`, `…+01:00`, `…+0100`, `…+01`) stays that instant, and a wall-clock reading without one
/// (`2026-11-22T14:30`, HTML's `datetime-local`) is the form zone's. Either way the value carries the
/// offset the zone has at that instant, so it compares, and is written, as the instant it is.
struct ZoneConverter: Sendable {
    let timeZone: TimeZone
    /// The zone's offsets, shared by every request of the form: reading a date-time asks for two or
    /// three, and ICU is slower than the rest of the reading.
    let offsets: ZoneOffsets

    /// A converter for the IANA zone `identifier` (checked at load); UTC when unknown.
    init(identifier: String) {
        timeZone = TimeZone(identifier: identifier) ?? TimeZone(secondsFromGMT: 0)!
        offsets = ZoneOffsets(zone: timeZone)
    }

    /// The zone's IANA name, as messages give it.
    var identifier: String { timeZone.identifier }

    /// What `text` names in the form's zone.
    func read(_ text: String) -> OffsetDateTime.Reading {
        OffsetDateTime.read(text) { offsets.secondsFromGMT(at: Double($0)) }
    }
}
