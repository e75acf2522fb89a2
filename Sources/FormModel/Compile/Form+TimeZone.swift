import Foundation

extension Form {
    /// The form with every date-time it holds (values, bounds, validators' bounds) read at the offset
    /// its time zone has at that instant. A form built in Swift may give an instant at any offset; its
    /// pages and payloads show the form zone's clock, as for a submitted value. (The loader reads a
    /// descriptor's date-times in the zone already, so this changes nothing there.)
    func readingDateTimesInItsZone() -> Form {
        // An unknown zone is reported by `ModelChecks`.
        guard let zone = TimeZone(identifier: timeZone) else { return self }
        var form = self
        for s in form.sections.indices {
            for r in form.sections[s].rows.indices { form.sections[s].rows[r].readDateTimes(in: zone) }
            form.sections[s].rowTemplate?.readDateTimes(in: zone)
        }
        return form
    }
}

extension Form {
    /// The UTC offset (seconds east) the form's time zone has at an instant (seconds since 1970), or nil
    /// for a zone Foundation does not know.
    func zoneOffsets() -> ((Int) -> Int)? {
        guard let zone = TimeZone(identifier: timeZone) else { return nil }
        return zone.offset(at:)
    }
}

extension TimeZone {
    /// The UTC offset (seconds east) the zone has at `seconds` since 1970: what `OffsetDateTime.read`
    /// asks of a zone.
    func offset(at seconds: Int) -> Int { secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))) }
}

extension Row {
    fileprivate mutating func readDateTimes(in zone: TimeZone) {
        guard type.valueKind == .dateTime else { return }
        value = value.map { $0.read(in: zone) }
        min = min.map { $0.read(in: zone) }
        max = max.map { $0.read(in: zone) }
        for index in validators.indices {
            switch validators[index].kind {
            case .min(let bound): validators[index].kind = .min(bound.read(in: zone))
            case .max(let bound): validators[index].kind = .max(bound.read(in: zone))
            default: continue
            }
        }
    }
}

extension FormValue {
    /// A date-time at the offset `zone` has at its instant; any other value as it is.
    fileprivate func read(in zone: TimeZone) -> FormValue {
        guard case .dateTime(let dateTime) = self else { return self }
        let seconds = dateTime.secondsSince1970
        let offset = zone.offset(at: seconds)
        guard offset != dateTime.offset, let read = OffsetDateTime(secondsSince1970: seconds, offset: offset) else {
            return self
        }
        return .dateTime(read)
    }
}
