import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A submission's id: 26 characters of Crockford's base32 holding the milliseconds since 1970 (48
/// bits) and 80 random bits, as a ULID does. Ids sort by when they were made, so a store lists the
/// newest first by its key alone, and cannot be guessed from one another, so an id names one
/// submission to whoever was given it and no other.
public struct SubmissionID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The 26 characters.
    public let description: String

    /// A new id for a submission received at `milliseconds` since 1970.
    public init(milliseconds: UInt64) {
        var random: (UInt64, UInt16) = (0, 0)
        withUnsafeMutableBytes(of: &random) { arc4random_buf($0.baseAddress!, $0.count) }
        self.init(milliseconds: milliseconds, random: (random.1, random.0))
    }

    /// The id of `milliseconds` and the 80 bits `random` (16 high, 64 low): for tests.
    init(milliseconds: UInt64, random: (high: UInt16, low: UInt64)) {
        // 128 bits, most significant first: the time, then the random bits.
        description = Self.encode(high: milliseconds << 16 | UInt64(random.high), low: random.low)
    }

    /// A new id, after every one this process made before it: ids made in one millisecond sort in the
    /// order they were made, so "newest first" holds. Within a millisecond the random part grows from
    /// the last by a random step of up to 48 bits, so an id still cannot be guessed from the one before.
    public static func next(milliseconds: UInt64) -> SubmissionID {
        var bits: (UInt64, UInt16) = (0, 0)
        withUnsafeMutableBytes(of: &bits) { arc4random_buf($0.baseAddress!, $0.count) }
        return last.withLock { last in
            var time = milliseconds
            var random = (high: bits.1, low: bits.0)
            if let previous = last, milliseconds <= previous.milliseconds {
                time = previous.milliseconds
                let (sum, carried) = previous.random.low.addingReportingOverflow(bits.0 >> 16 | 1)
                random = (previous.random.high &+ (carried ? 1 : 0), sum)
            }
            last = (time, random)
            return SubmissionID(milliseconds: time, random: random)
        }
    }

    /// The id of millisecond `milliseconds` whose random part is the first 80 bits of `bytes` (a digest
    /// of what the submission was): the same submission gets the same id every time, for an import
    /// that must not keep it twice.
    public init(milliseconds: UInt64, derivedFrom bytes: [UInt8]) {
        precondition(bytes.count >= 10, "an id takes 80 bits")
        let high = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
        let low = bytes[2..<10].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        self.init(milliseconds: min(milliseconds, (1 << 48) - 1), random: (high, low))
    }

    /// The first id of millisecond `milliseconds` (all its random bits zero): where a time range starts.
    public static func first(atMillisecond milliseconds: UInt64) -> SubmissionID {
        SubmissionID(milliseconds: min(milliseconds, (1 << 48) - 1), random: (0, 0))
    }

    /// The time and random part of the last id `next` gave.
    private static let last = Mutex<(milliseconds: UInt64, random: (high: UInt16, low: UInt64))?>(nil)

    /// How many characters an id has.
    public static let length = 26

    /// The id `text` spells, if it has an id's shape (any case; Crockford's `I`, `L` and `O` are
    /// not used, as none is ever written).
    public init?(_ text: String) {
        guard text.utf8.count == Self.length, text.utf8.allSatisfy({ $0 < 0x80 }),
            text.utf8.first.map({ $0 <= UInt8(ascii: "7") }) ?? false,
            text.uppercased().utf8.allSatisfy({ Self.alphabet.utf8.contains($0) })
        else { return nil }
        description = text.uppercased()
    }

    public static func < (lhs: SubmissionID, rhs: SubmissionID) -> Bool { lhs.description < rhs.description }

    /// The milliseconds since 1970 the id was made at.
    public var milliseconds: UInt64 {
        // The first ten digits are 50 bits: two that are always zero, then the 48 of the time.
        description.utf8.prefix(10).reduce(0) { $0 << 5 | UInt64(Self.digits.firstIndex(of: $1) ?? 0) }
    }

    private static let alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    private static let digits = Array(alphabet.utf8)

    /// The 128 bits `high` then `low` as 26 base32 digits: 3 bits, then 5 at a time.
    private static func encode(high: UInt64, low: UInt64) -> String {
        var text = [UInt8](repeating: 0, count: 26)
        for position in 0..<26 {
            // Bit offset of this digit's least significant bit, counted from the end of the 128 bits.
            let shift = (25 - position) * 5
            let value: UInt64
            if shift >= 64 {
                value = high >> UInt64(shift - 64)
            } else if shift > 59 {
                value = high << UInt64(64 - shift) | low >> UInt64(shift)
            } else {
                value = low >> UInt64(shift)
            }
            text[position] = digits[Int(value & 31)]
        }
        return String(decoding: text, as: UTF8.self)
    }
}
