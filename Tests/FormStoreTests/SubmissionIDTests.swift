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

    @Test func anIdIsReadBackOnlyFromItsShape() throws {
        let id = SubmissionID(milliseconds: 1_764_000_000_000)
        #expect(SubmissionID(id.description) == id)
        #expect(SubmissionID(id.description.lowercased()) == id)
        for bad in [
            "", "0123", String(repeating: "Z", count: 26), String(repeating: "0", count: 25) + "U",
            id.description + "0",
        ] {
            #expect(SubmissionID(bad) == nil, "\(bad)")
        }
    }
}
