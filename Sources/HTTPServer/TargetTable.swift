#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fixed table from exact request targets (`/static/forms.css`) to values, looked up by the target's
/// bytes.
///
/// A `Dictionary<String, _>` lookup hashes with SipHash and compares Unicode-aware; a target is
/// looked up on every request, so this table hashes bytes with FNV-1a and compares with `memcmp`.
/// Keys are fixed when the table is built and a lookup only reads, so a client cannot grow chains:
/// the worst a crafted target can do is walk the few keys that share its run of slots, and a target
/// longer than every key is not hashed at all.
///
/// Its storage is laid out once, in memory of its own, and read through pointers: reading Swift
/// arrays out of a class would cost a retain and a release per array and lookup, atomic operations
/// dearer than the lookup itself. `@unchecked Sendable`: nothing is written after `init`.
final class TargetTable<Value: Sendable>: @unchecked Sendable {
    /// One key: its hash, where its bytes are in `keyBytes`, and its value's index in `values`.
    private struct Slot {
        var hash: UInt64 = 0
        var start = 0
        /// -1 in an empty slot.
        var count = -1
        var value = 0
    }

    /// Open addressing with linear probing, at most half full: every probe ends at an empty slot.
    private let slots: UnsafeMutableBufferPointer<Slot>
    private let keyBytes: UnsafeMutableBufferPointer<UInt8>
    /// Each key as a string, for a request whose target it is: its log line then needs no string
    /// decoded from the target's bytes.
    private let keyTexts: UnsafeMutableBufferPointer<String>
    private let values: UnsafeMutableBufferPointer<Value>
    private let longestKey: Int
    /// How many keys the table holds.
    let count: Int

    /// A table of `entries`; a key given twice keeps its first value.
    init(_ entries: [(key: String, value: Value)]) {
        var keys: [[UInt8]] = []
        var texts: [String] = []
        var kept: [Value] = []
        var seen: Set<[UInt8]> = []
        for (key, value) in entries where seen.insert(Array(key.utf8)).inserted {
            keys.append(Array(key.utf8))
            texts.append(key)
            kept.append(value)
        }
        var size = 2
        while size < keys.count * 2 { size *= 2 }
        slots = .allocate(capacity: size)
        slots.initialize(repeating: Slot())
        keyBytes = .allocate(capacity: max(1, keys.reduce(0) { $0 + $1.count }))
        values = .allocate(capacity: max(1, kept.count))
        _ = values.initialize(from: kept)
        keyTexts = .allocate(capacity: max(1, texts.count))
        _ = keyTexts.initialize(from: texts)
        longestKey = keys.map(\.count).max() ?? -1
        count = keys.count
        var start = 0
        for (index, key) in keys.enumerated() {
            _ = UnsafeMutableBufferPointer(rebasing: keyBytes[start...]).initialize(from: key)
            let hash = key.withUnsafeBufferPointer(Self.hash)
            var position = Int(truncatingIfNeeded: hash) & (size - 1)
            while slots[position].count >= 0 { position = (position + 1) & (size - 1) }
            slots[position] = Slot(hash: hash, start: start, count: key.count, value: index)
            start += key.count
        }
    }

    deinit {
        values.baseAddress!.deinitialize(count: count)
        values.deallocate()
        keyTexts.baseAddress!.deinitialize(count: count)
        keyTexts.deallocate()
        keyBytes.deallocate()
        slots.deallocate()
    }

    /// The value for exactly `target`, if any.
    func value(for target: String) -> Value? {
        var target = target
        return target.withUTF8 { value(for: $0) }
    }

    /// The value for exactly the bytes of `target`, if any.
    func value(for target: UnsafeBufferPointer<UInt8>) -> Value? {
        index(of: target).map { values[$0] }
    }

    /// The value for exactly the bytes of `target`, and its key as a string, if any.
    func entry(for target: UnsafeBufferPointer<UInt8>) -> (key: String, value: Value)? {
        guard let index = index(of: target) else { return nil }
        return (keyTexts[index], values[index])
    }

    /// Where the key that is exactly the bytes of `target` has its value, if any.
    private func index(of target: UnsafeBufferPointer<UInt8>) -> Int? {
        guard target.count <= longestKey else { return nil }
        let hash = Self.hash(target)
        let mask = slots.count &- 1
        var position = Int(truncatingIfNeeded: hash) & mask
        while true {
            let slot = slots[position]
            if slot.count < 0 { return nil }
            if slot.hash == hash, slot.count == target.count,
                slot.count == 0 || memcmp(keyBytes.baseAddress! + slot.start, target.baseAddress!, slot.count) == 0
            {
                return slot.value
            }
            position = (position &+ 1) & mask
        }
    }

    /// FNV-1a, 64-bit.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }
}
