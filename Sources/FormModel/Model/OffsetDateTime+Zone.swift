extension OffsetDateTime {
    /// What a date-time text names in a time zone.
    public enum Reading: Sendable, Hashable {
        /// An instant, read at the zone's offset then.
        case instant(OffsetDateTime)
        /// A wall-clock reading the zone's clocks skip when they go forward: no instant has it.
        case skipped(LocalDateTime)
        /// Not a date-time as ISO 8601 or HTML's `datetime-local` writes one, or outside years 1 to 9999.
        case malformed
    }

    /// Reads `text` in the zone whose UTC offset (seconds east) at an instant (seconds since 1970)
    /// `offsetAt` gives:
    ///
    /// - with an offset (`Z`, `±HH:MM`, `±HHMM`, `±HH`): that instant, at the offset the zone has then;
    /// - without (`2026-10-25T02:30`, HTML's `datetime-local`): the zone's wall-clock time. A reading
    ///   the clocks skip is `.skipped`; one they show twice, when they go back, is the earlier of the two
    ///   instants, the first time the clock shows it (as java.time and calendar applications take it).
    ///
    /// ```swift
    /// // Europe/Paris, the night of 2026-10-25: 02:00 to 03:00 comes twice.
    /// OffsetDateTime.read("2026-10-25T00:45:00Z", offsetAt: paris)  // 02:45:00+02:00
    /// OffsetDateTime.read("2026-10-25T02:45", offsetAt: paris)      // 02:45:00+02:00, the first one
    /// ```
    public static func read(_ text: String, offsetAt: (Int) -> Int) -> Reading {
        guard let (local, sent) = ISOText.scan(text, ISOText.dateTimeWithOffset) else { return .malformed }
        let wall = local.date.daysSince1970 * 86_400 + local.time.secondsOfDay
        guard let sent else {
            guard let placed = local.placed(wall: wall, offsetAt: offsetAt) else { return .skipped(local) }
            return instants.contains(placed.secondsSince1970) ? .instant(placed) : .malformed
        }
        let instant = wall - sent
        guard instants.contains(instant) else { return .malformed }
        let offset = offsetAt(instant)
        // Sent at the zone's own offset, as most clients do: the reading is already the zone's.
        if offset == sent { return .instant(OffsetDateTime(local: local, offset: offset)) }
        return OffsetDateTime(secondsSince1970: instant, offset: offset).map(Reading.instant) ?? .malformed
    }

    /// The instants whose UTC reading is in the years 1 to 9999, so conditions can read any value in UTC.
    private static let instants = -62_135_596_800...253_402_300_799
}

extension LocalDateTime {
    /// The instant this wall-clock reading names in the zone `offsetAt` describes, `wall` being the
    /// reading's seconds since 1970 as if it were UTC: nil when the clocks skip it, the earlier of the
    /// two when they show it twice.
    func placed(wall: Int, offsetAt: (Int) -> Int) -> OffsetDateTime? {
        // An offset is under a day, so only a change of offset within a day either side can touch this
        // reading; zones change their offset at most once in such a stretch.
        let before = offsetAt(wall - 86_400)
        let after = offsetAt(wall + 86_400)
        if before == after { return OffsetDateTime(local: self, offset: before) }
        // A change near: the reading holds under an offset when the zone has that offset at the instant
        // it gives. Under both, the clocks went back and the earlier instant is under the larger offset;
        // under neither, they went forward past it.
        let underBefore = offsetAt(wall - before) == before
        let underAfter = offsetAt(wall - after) == after
        switch (underBefore, underAfter) {
        case (true, true): return OffsetDateTime(local: self, offset: max(before, after))
        case (true, false): return OffsetDateTime(local: self, offset: before)
        case (false, true): return OffsetDateTime(local: self, offset: after)
        case (false, false): return nil
        }
    }
}
