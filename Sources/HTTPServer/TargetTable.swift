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
/// the worst a crafted target can do is walk the few keys that share its bucket.
///
/// A class: it is read on every request, and reading a reference costs one retain where copying the
/// struct's four arrays cost four.
final class TargetTable<Value: Sendable>: Sendable {
    private let keys: [[UInt8]]
    private let values: [Value]
    /// For each bucket, the indices of the keys that hash into it.
    private let buckets: [[Int]]
    /// The bytes every key starts with, checked before hashing: most targets are not in the table.
    private let commonPrefix: [UInt8]

    /// A table of `entries`; a key given twice keeps its first value.
    init(_ entries: [(key: String, value: Value)]) {
        var keys: [[UInt8]] = []
        var values: [Value] = []
        var seen: Set<[UInt8]> = []
        for (key, value) in entries where seen.insert(Array(key.utf8)).inserted {
            keys.append(Array(key.utf8))
            values.append(value)
        }
        var size = 1
        while size < keys.count * 2 { size *= 2 }
        var buckets = [[Int]](repeating: [], count: size)
        for (index, key) in keys.enumerated() {
            key.withUnsafeBufferPointer { buckets[Self.hash($0) & (size - 1)].append(index) }
        }
        self.keys = keys
        self.values = values
        self.buckets = buckets
        commonPrefix = keys.dropFirst().reduce(keys.first ?? []) { prefix, key in
            Array(zip(prefix, key).prefix { $0 == $1 }.map(\.0))
        }
    }

    /// Whether the table holds nothing.
    var isEmpty: Bool { keys.isEmpty }

    /// The value for exactly `target`, if any.
    func value(for target: String) -> Value? {
        guard !keys.isEmpty else { return nil }
        var target = target
        return target.withUTF8 { bytes -> Value? in
            guard bytes.count >= commonPrefix.count, Self.equal(commonPrefix, bytes.prefix(commonPrefix.count)) else {
                return nil
            }
            for index in buckets[Self.hash(bytes) & (buckets.count - 1)] {
                let matches = keys[index].withUnsafeBufferPointer { key in
                    key.count == bytes.count
                        && (key.isEmpty || memcmp(key.baseAddress!, bytes.baseAddress!, key.count) == 0)
                }
                if matches { return values[index] }
            }
            return nil
        }
    }

    /// Whether `key` holds exactly the bytes of `bytes`, which has its length.
    private static func equal(_ key: [UInt8], _ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        key.withUnsafeBufferPointer { key in
            key.isEmpty || memcmp(key.baseAddress!, bytes.base.baseAddress! + bytes.startIndex, key.count) == 0
        }
    }

    /// FNV-1a, 64-bit.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return Int(truncatingIfNeeded: hash)
    }
}
