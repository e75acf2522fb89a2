import FormModel
import Foundation

extension Verdict {
    /// XLForm's `httpParameters`: one key per tagged, visible row (null when empty), a multivalued
    /// section's values as an array under its `multivaluedTag`, an option as its value, dates and
    /// times as ISO-8601. Hidden rows and sections are left out (DESIGN.md, rule 4).
    public var httpParameters: JSONValue { payloads().httpParameters }

    /// XLForm's `formValues`: the same keys, with options as `{"value", "title"}` and files as
    /// `{"filename", "contentType", "size"}`.
    public var formValues: JSONValue { payloads().formValues }

    /// Both payloads from one walk of the form: they share their keys and every value but options and
    /// files, so each value (a date-time's zone offset included) is converted once.
    func payloads() -> (httpParameters: JSONValue, formValues: JSONValue) {
        var plain: [(String, JSONValue)] = []
        var detailed: [(String, JSONValue)] = []
        // Reserved once: appending pair by pair would regrow each array several times.
        plain.reserveCapacity(plan.payloadKeys)
        detailed.reserveCapacity(plan.payloadKeys)
        for section in form.sections where !sectionHidden[section.index] {
            if let tag = section.section.multivaluedTag, let item = section.item {
                let pairs = (items[section.index] ?? []).map { json($0, row: item.row, options: nil) }
                plain.append((tag, .array(pairs.map(\.plain))))
                detailed.append((tag, .array(pairs.map(\.detailed))))
                continue
            }
            for index in section.rows where !rowHidden[index] {
                let compiled = form.rows[index]  // a class: the row is read in place, not copied
                guard let tag = compiled.row.tag, compiled.row.type.takesInput else { continue }
                let pair =
                    values[index].map { json($0, row: compiled.row, options: plan.rows[index].optionObjects) }
                    ?? (.null, .null)
                plain.append((tag, pair.plain))
                detailed.append((tag, pair.detailed))
            }
        }
        return (.object(plain), .object(detailed))
    }

    /// A value as `httpParameters` and as `formValues` show it. `options` are the row's option objects
    /// built in advance (`RowPlan.optionObjects`), when there are.
    func json(_ value: FormValue, row: Row, options: [JSONValue]?) -> (plain: JSONValue, detailed: JSONValue) {
        let shared: JSONValue
        switch value {
        case .option(let key): return (.string(key), option(key, row: row, objects: options))
        case .options(let keys):
            return (.array(keys.map(JSONValue.string)), .array(keys.map { option($0, row: row, objects: options) }))
        case .file(let file):
            return (.string(file.filename), Self.fileObject(file))
        case .text(let text): shared = .string(text)
        case .integer(let number): shared = .integer(number)
        case .decimal(let number): shared = .number("\(number)")
        case .bool(let flag): shared = .bool(flag)
        case .date(let date): shared = .string(ISOWriter.string { $0.append(date) })
        case .time(let time): shared = .string(time.isoDescription)
        case .dateTime(let dateTime): shared = .string(dateTime.iso8601(in: zone))
        case .duration(let seconds): shared = .integer(seconds)
        }
        return (shared, shared)
    }

    /// `{"value", "title"}` for the option `key` of `row`; the title is the key itself when no option has it.
    func option(_ key: String, row: Row, objects: [JSONValue]?) -> JSONValue {
        option(key, choices: row.options, objects: objects)
    }

    /// `option(_:row:objects:)` given the row's options alone.
    func option(_ key: String, choices: [Option], objects: [JSONValue]?) -> JSONValue {
        guard let position = choices.firstIndex(where: { $0.value == key }) else {
            return Self.optionObject(value: key, title: key)
        }
        let option = choices[position]
        // The object built in advance holds the option's own spelling: use it when the key is spelled
        // the same, byte for byte (`==` also matches a canonically equivalent spelling).
        if let objects, option.value.utf8.elementsEqual(key.utf8) { return objects[position] }
        return Self.optionObject(value: key, title: option.title)
    }

    /// A file as `formValues` shows it.
    static func fileObject(_ file: UploadedFile) -> JSONValue {
        .object([
            ("filename", .string(file.filename)), ("contentType", .string(file.contentType)),
            ("size", .integer(file.size)),
        ])
    }

    /// An option as `formValues` shows it.
    static func optionObject(value: String, title: String) -> JSONValue {
        .object([("value", .string(value)), ("title", .string(title))])
    }
}

extension LocalTime {
    /// `HH:MM:SS`, seconds always written.
    var isoDescription: String { ISOWriter.string { $0.append(self, secondsAlways: true) } }
}

extension LocalDateTime {
    /// `2026-11-22T14:30:00+01:00`: the local time with the offset the form's zone has at that moment,
    /// so an API client gets an instant, not a wall-clock reading.
    func iso8601(in zone: ZoneOffsets?) -> String {
        guard let zone else { return ISOWriter.string { $0.append(self, secondsAlways: true) } }
        // The wall-clock reading as if it were UTC, then the zone's offset at the instant it names
        // (asked twice, so a reading near a daylight-saving change takes the offset in force then).
        let wallClock = Double(date.daysSince1970 * 86_400 + time.secondsOfDay)
        let guess = zone.secondsFromGMT(at: wallClock)
        let offset = zone.secondsFromGMT(at: wallClock - Double(guess))
        return ISOWriter.string { writer in
            writer.append(self, secondsAlways: true)
            guard offset != 0 else { return writer.append("Z") }
            writer.append(offset < 0 ? "-" : "+")
            let minutes = abs(offset) / 60
            writer.append(minutes / 60, width: 2)
            writer.append(":")
            writer.append(minutes % 60, width: 2)
        }
    }
}

extension LocalDate {
    /// Days from 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's days_from_civil).
    var daysSince1970: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
