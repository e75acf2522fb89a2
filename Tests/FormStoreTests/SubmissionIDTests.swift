import Testing

@testable import FormStore

/// `SubmissionID`: sortable by time, unguessable, 26 characters of Crockford's base32.
@Suite struct SubmissionIDTests {
    @Test func anIdHoldsItsTimeAndSortsByIt() {
        let earlier = SubmissionID(milliseconds: 1_764_000_000_000)
        let later = SubmissionID(milliseconds: 1_764_000_000_001)
        #expect(earlier.description.count == 26)
        #expect(earlier < later)
        #expect(earlier.milliseconds == 1_764_000_000_000)
        #expect(SubmissionID(milliseconds: 0).description.hasPrefix("0000000000"))
        #expect(SubmissionID(milliseconds: (1 << 48) - 1).milliseconds == (1 << 48) - 1)
    }

    @Test func idsOfOneMillisecondDifferInTheirRandomPart() {
        let ids = Set((0..<1000).map { _ in SubmissionID(milliseconds: 42).description })
        #expect(ids.count == 1000)
        #expect(ids.allSatisfy { $0.hasPrefix("000000001A") })
    }

    /// The 128 bits in order: three in the first digit, then five a digit, across the two words.
    @Test func anIdSpellsItsBitsInCrockfordsBase32() {
        #expect(
            SubmissionID(milliseconds: 1, random: (0, 0)).description == "0000000001"
                + String(repeating: "0", count: 16))
        // The digit that takes the low word's top four bits and the high word's lowest.
        #expect(
            SubmissionID(milliseconds: 0, random: (0, 0xF000_0000_0000_0000)).description
                == "0000000000000F000000000000")
        #expect(
            SubmissionID(milliseconds: 0, random: (1, 0xF000_0000_0000_0000)).description
                == "0000000000000Z000000000000")
        #expect(
            SubmissionID(milliseconds: (1 << 48) - 1, random: (.max, .max)).description == "7"
                + String(repeating: "Z", count: 25))
    }

    /// Ids made in one millisecond by one process sort in the order they were made, and differ.
    @Test func idsOfOneMillisecondSortInTheOrderMade() {
        let ids = (0..<1000).map { _ in SubmissionID.next(milliseconds: 7) }
        #expect(ids == ids.sorted())
        #expect(Set(ids).count == 1000)
        #expect(SubmissionID.next(milliseconds: 8) > ids.last!)
        #expect(SubmissionID.next(milliseconds: 3) > ids.last!)  // a clock stepping back still sorts after
    }

    @Test func anIdIsReadBackOnlyFromItsShape() throws {
        let id = SubmissionID(milliseconds: 1_764_000_000_000)
        #expect(SubmissionID(id.description) == id)
        #expect(SubmissionID(id.description.lowercased()) == id)
        for bad in [
            "", "0123", String(repeating: "Z", count: 26), String(repeating: "0", count: 25) + "U",
            id.description + "0", String(repeating: "0", count: 23) + "\u{FB00}",
        ] {
            #expect(SubmissionID(bad) == nil, "\(bad)")
        }
    }
}
