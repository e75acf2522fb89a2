import Foundation
import Synchronization

/// A time zone's UTC offsets, remembered with the stretch of time each holds for.
///
/// Asking ICU for an offset costs more than the rest of reading a date-time, and every submission
/// reads its date-times in the form's zone (`ZoneConverter`). An offset holds from the instant it was
/// asked for until the zone's next transition, so the last few such stretches answer nearly every request.
final class ZoneOffsets: Sendable {
    /// The zone answered for.
    let zone: TimeZone

    /// Instants (seconds since 1970) from `start` up to, not including, `end` are `offset` from UTC.
    private struct Span {
        let start: Double
        let end: Double
        let offset: Int
    }

    /// The stretches remembered, oldest first; at most `capacity`.
    private let spans = Mutex<[Span]>([])
    private static let capacity = 8

    init(zone: TimeZone) { self.zone = zone }

    /// `zone.secondsFromGMT(for:)` at `seconds` since 1970, from a remembered stretch when one holds it.
    func secondsFromGMT(at seconds: Double) -> Int {
        let known = spans.withLock { spans in
            spans.first { $0.start <= seconds && seconds < $0.end }?.offset
        }
        if let known { return known }
        let instant = Date(timeIntervalSince1970: seconds)
        let offset = zone.secondsFromGMT(for: instant)
        // No transition ahead (a fixed-offset zone, or past the zone's last rule): it holds for good.
        let end = zone.nextDaylightSavingTimeTransition(after: instant)?.timeIntervalSince1970 ?? .infinity
        spans.withLock { spans in
            if spans.count == Self.capacity { spans.removeFirst() }
            spans.append(Span(start: seconds, end: end, offset: offset))
        }
        return offset
    }
}
