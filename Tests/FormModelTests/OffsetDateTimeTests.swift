import Foundation
import Testing

@testable import FormModel

/// `OffsetDateTime.read`: an offset names an instant, a bare reading is the zone's wall-clock time
/// (none in a spring-forward gap, the earlier in an autumn overlap), and values order as instants.
@Suite struct OffsetDateTimeTests {
    static let paris = TimeZone(identifier: "Europe/Paris")!

    /// `zone`'s offset at an instant, as the loader asks Foundation for it.
    static func offsets(_ zone: TimeZone) -> (Int) -> Int {
        { zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double($0))) }
    }

    /// `text` read in Paris, as the payload writes it; `skipped` or `malformed` otherwise.
    func paris(_ text: String) -> String {
        switch OffsetDateTime.read(text, offsetAt: Self.offsets(Self.paris)) {
        case .instant(let value): value.description
        case .skipped(let local): "skipped \(local)"
        case .malformed: "malformed"
        }
    }

    /// (sent, read in Europe/Paris). On 2026-10-25 the clocks go back from 03:00+02:00 to 02:00+01:00
    /// (01:00Z); on 2026-03-29 they go forward from 02:00+01:00 to 03:00+02:00 (01:00Z).
    @Test(
        arguments: [
            // An offset or Z: that instant, at the offset Paris has then, on both sides of the change.
            ("2026-10-25T00:45:00Z", "2026-10-25T02:45:00+02:00"),
            ("2026-10-25T01:45:00Z", "2026-10-25T02:45:00+01:00"),
            ("2026-10-25T00:30:00Z", "2026-10-25T02:30:00+02:00"),
            ("2026-10-25T01:30:00Z", "2026-10-25T02:30:00+01:00"),
            ("2026-10-25T00:59:59z", "2026-10-25T02:59:59+02:00"),
            ("2026-10-25T01:00:00Z", "2026-10-25T02:00:00+01:00"),
            ("2026-10-25T02:30:00+01:00", "2026-10-25T02:30:00+01:00"),
            ("2026-10-25T02:45:00+02:00", "2026-10-25T02:45:00+02:00"),
            ("2026-07-01T12:00:00-04:00", "2026-07-01T18:00:00+02:00"),
            ("2026-12-31T23:30:00-01:00", "2027-01-01T01:30:00+01:00"),
            // ISO 8601's basic and hour-only offsets.
            ("2026-11-23T12:00:00+0100", "2026-11-23T12:00:00+01:00"),
            ("2026-11-23T11:00+00", "2026-11-23T12:00:00+01:00"),
            ("2026-11-23T17:30-0530", "2026-11-24T00:00:00+01:00"),
            ("2026-11-23T12:00:00.750+01", "2026-11-23T12:00:00+01:00"),
            // No offset: Paris's wall-clock time; twice shown means the first time, skipped means none.
            ("2026-11-23T12:00", "2026-11-23T12:00:00+01:00"),
            ("2026-07-01 09:00:30", "2026-07-01T09:00:30+02:00"),
            ("2026-10-25T01:59:59", "2026-10-25T01:59:59+02:00"),
            ("2026-10-25T02:00", "2026-10-25T02:00:00+02:00"),
            ("2026-10-25T02:30", "2026-10-25T02:30:00+02:00"),
            ("2026-10-25T02:59:59", "2026-10-25T02:59:59+02:00"),
            ("2026-10-25T03:00", "2026-10-25T03:00:00+01:00"),
            ("2026-03-29T01:59:59", "2026-03-29T01:59:59+01:00"),
            ("2026-03-29T02:00", "skipped 2026-03-29T02:00"),
            ("2026-03-29T02:30", "skipped 2026-03-29T02:30"),
            ("2026-03-29T02:59:59", "skipped 2026-03-29T02:59:59"),
            ("2026-03-29T03:00", "2026-03-29T03:00:00+02:00"),
            // Not a date-time: offsets ISO 8601 does not write, or out of range; no date; no years.
            ("2026-11-23T12:00+1", "malformed"), ("2026-11-23T12:00+01:0", "malformed"),
            ("2026-11-23T12:00+010", "malformed"), ("2026-11-23T12:00+24:00", "malformed"),
            ("2026-11-23T12:00+01:60", "malformed"), ("2026-11-23T12:00+01:00Z", "malformed"),
            ("2026-11-23T12:00 +01:00", "malformed"), ("2026-11-23+01:00", "malformed"),
            ("2026-02-30T12:00Z", "malformed"), ("Z", "malformed"), ("0001-01-01T00:30+01:00", "malformed"),
            ("9999-12-31T23:30-01:00", "malformed"),
        ] as [(String, String)])
    func readsInTheZone(sent: String, read: String) {
        #expect(paris(sent) == read)
    }

    /// Around every change of offset in zones with ordinary, half-hour, abolished and day-long changes,
    /// every quarter hour of wall-clock time reads as a brute-force search of the instants says: the
    /// earliest instant the zone shows that reading at, or none.
    @Test(arguments: [
        "Europe/Paris", "America/New_York", "Australia/Lord_Howe", "America/Sao_Paulo", "Pacific/Apia",
        "Asia/Kathmandu", "Etc/GMT+5",
    ])
    func agreesWithASearchOfTheInstants(identifier: String) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        let offsetAt = Memo(Self.offsets(zone)).offset
        var changes: [Int] = []
        var instant = Date(timeIntervalSince1970: 1_293_840_000)  // 2011, Apia's skipped day included
        while let next = zone.nextDaylightSavingTimeTransition(after: instant),
            next.timeIntervalSince1970 < 1_956_528_000
        {
            changes.append(Int(next.timeIntervalSince1970))
            instant = next
        }
        // A zone without changes is read far from any: one ordinary day.
        if changes.isEmpty { changes = [1_774_746_000] }
        for change in changes {
            for quarter in -12 * 4...12 * 4 {
                let utc = try #require(OffsetDateTime(secondsSince1970: change + quarter * 900, offset: 0))
                // Every reading near the change, whatever the zone's offset: the instant's reading at
                // each of the zone's offsets of those days.
                for offset in Set([offsetAt(change - 86_400), offsetAt(change + 86_400)]) {
                    let local = try #require(OffsetDateTime(secondsSince1970: utc.secondsSince1970, offset: offset))
                        .local
                    let wall = local.date.daysSince1970 * 86_400 + local.time.secondsOfDay
                    // An offset is within ±14 hours: every instant that could show the reading.
                    let shown = stride(from: wall - 15 * 3600, through: wall + 15 * 3600, by: 900).filter {
                        $0 + offsetAt($0) == wall
                    }
                    let expected: OffsetDateTime.Reading =
                        shown.min().map { .instant(OffsetDateTime(local: local, offset: wall - $0)) }
                        ?? .skipped(local)
                    #expect(
                        OffsetDateTime.read(local.description, offsetAt: offsetAt) == expected, "\(identifier) \(local)"
                    )
                }
            }
        }
    }

    @Test func valuesOrderAsInstantsNotAsReadings() throws {
        let first = OffsetDateTime(local: LocalDateTime(iso: "2026-10-25T02:45")!, offset: 7200)
        let second = OffsetDateTime(local: LocalDateTime(iso: "2026-10-25T02:30")!, offset: 3600)
        #expect(first < second)
        #expect(first.local > second.local)
        #expect(first.secondsSince1970 == 1_792_889_100)
        #expect(second.secondsSince1970 - first.secondsSince1970 == 45 * 60)
        #expect(first.utc?.description == "2026-10-25T00:45:00Z")
        #expect(second.utc?.description == "2026-10-25T01:30:00Z")
    }

    @Test func daysSince1970RoundTripsEveryDayOfFourHundredYearsAndTheEnds() throws {
        for days in Array(-719_162...(-573_000)) + Array(-1000...150_000) + Array(2_932_000...2_932_896) {
            let date = try #require(LocalDate(daysSince1970: days), "\(days)")
            #expect(date.daysSince1970 == days)
        }
        #expect(LocalDate(daysSince1970: 0)?.description == "1970-01-01")
        #expect(LocalDate(daysSince1970: -719_162)?.description == "0001-01-01")
        #expect(LocalDate(daysSince1970: 2_932_896)?.description == "9999-12-31")
        #expect(LocalDate(daysSince1970: 20_512)?.description == "2026-02-28")
        #expect(LocalDate(daysSince1970: 11_016)?.description == "2000-02-29")
        #expect(LocalDate(daysSince1970: -719_163) == nil)
        #expect(LocalDate(daysSince1970: 2_932_897) == nil)
    }
}

/// Remembers a zone's offsets, so the brute-force search above asks Foundation once per instant.
private final class Memo {
    private let ask: (Int) -> Int
    private var known: [Int: Int] = [:]
    init(_ ask: @escaping (Int) -> Int) { self.ask = ask }
    func offset(_ seconds: Int) -> Int {
        if let offset = known[seconds] { return offset }
        let offset = ask(seconds)
        known[seconds] = offset
        return offset
    }
}

/// Date-times in descriptors and in Swift-built forms are read in the form's zone, as submissions are.
@Suite struct DescriptorDateTimeTests {
    @Test func descriptorDateTimesAreReadInTheFormsZone() throws {
        let form = try load(
            """
            timeZone: Europe/Paris
            sections:
              - rows:
                  - { tag: a, type: datetime, value: "2026-10-25T02:30", min: "2026-10-25T01:30Z" }
                  - tag: b
                    type: datetime
                    value: "2026-10-25T02:30+01:00"
                    validators: [{ kind: max, value: "2026-10-25T02:30+0100" }]
            """
        ).get()
        let rows = form.sections[0].rows
        // The overlap's first 02:30, and an offset kept as the instant it names.
        #expect(rows[0].value?.description == "2026-10-25T02:30:00+02:00")
        #expect(rows[0].min?.description == "2026-10-25T02:30:00+01:00")
        #expect(rows[1].value?.description == "2026-10-25T02:30:00+01:00")
        #expect(rows[1].validators.first?.kind == .max(rows[1].value!))
        // What a datetime-local control shows: the wall-clock reading.
        #expect(rows[0].value?.inputText == "2026-10-25T02:30")
    }

    @Test func aDescriptorTimeTheClocksSkipIsALoadError() {
        let found = problems(
            """
            timeZone: Europe/Paris
            sections: [{ rows: [{ tag: a, type: datetime, value: "2026-03-29T02:30" }] }]
            """)
        #expect(found.count == 1)
        #expect(found.first?.contains("'2026-03-29T02:30' does not exist in Europe/Paris") == true)
        #expect(found.first?.contains("sections[0].rows[0].value") == true)
    }

    @Test func aSwiftFormsDateTimesAreShownAtTheZonesOffset() throws {
        let utc = OffsetDateTime(local: LocalDateTime(iso: "2026-07-01T07:30")!, offset: 0)
        var row = Row(.datetime, tag: "at", title: "At")
        row.value = .dateTime(utc)
        row.validators = [ValidatorSpec(.min(.dateTime(utc)))]
        var form = Form(id: "f", sections: [Section(rows: [row])])
        form.timeZone = "Europe/Paris"
        let compiled = try FormCompiler().compile(form, file: "test")
        let value = compiled.rows[0].row.value
        #expect(value?.description == "2026-07-01T09:30:00+02:00")
        #expect(compiled.rows[0].row.validators.first?.kind == .min(value!))
        guard case .dateTime(let read)? = value else { Issue.record("not a date-time"); return }
        #expect(read.secondsSince1970 == utc.secondsSince1970)
    }
}
