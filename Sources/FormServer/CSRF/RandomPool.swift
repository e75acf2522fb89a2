private import COpenSSL

/// Random bytes drawn from the system 4 KiB at a time and handed out once each: a page for a new
/// browser needs 16 of them, and a `getrandom(2)` per page cost more than the rest of its nonce.
///
/// Each thread draws from its own buffer, kept in C's thread-local storage (`COpenSSL_random16`):
/// one buffer for all had every new reader's page write it from whichever core the page was made
/// on, and a buffer per thread behind a lock (`Shards`) still cost two atomic operations and a
/// thread-specific lookup per page.
enum RandomPool {
    /// 128 fresh random bits; the pool's copy is wiped.
    static func next128() -> (UInt64, UInt64) {
        var bits: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &bits) { COpenSSL_random16($0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
        return bits
    }
}
