import HTTPServer

#if canImport(Glibc)
    import Glibc
#endif

/// Random bytes drawn from the system 4 KiB at a time and handed out once each: a page for a new
/// browser needs 16 of them, and a `getrandom(2)` per page cost more than the rest of its nonce.
/// Each thread draws from its own buffer (`Shards`): one for all had every new reader's page write it
/// from whichever core the page was made on.
final class RandomPool: Sendable {
    static let shared = RandomPool()

    private struct State: ~Copyable {
        var bytes = [UInt8](repeating: 0, count: 4096)
        var used = 4096
    }
    private let state = Shards { _ in State() }

    /// Fills `buffer` from the kernel's generator: glibc's `arc4random_buf` is `getrandom(2)`, one
    /// call for the whole buffer.
    private static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        arc4random_buf(buffer.baseAddress!, buffer.count)
    }

    /// 128 fresh random bits; the pool's copy is wiped.
    func next128() -> (UInt64, UInt64) {
        state.withLock { state in
            if state.used + 16 > state.bytes.count {
                state.bytes.withUnsafeMutableBytes(Self.fill)
                state.used = 0
            }
            defer {
                for index in state.used..<state.used + 16 { state.bytes[index] = 0 }
                state.used += 16
            }
            return state.bytes.withUnsafeBytes {
                (
                    $0.loadUnaligned(fromByteOffset: state.used, as: UInt64.self),
                    $0.loadUnaligned(fromByteOffset: state.used + 8, as: UInt64.self)
                )
            }
        }
    }
}
