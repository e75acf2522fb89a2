private import COpenSSL
import HTTPServer

/// HMAC-SHA256 under one key, through libcrypto's EVP_MAC: the key is set once per context, and each
/// MAC starts anew in a context that keeps it, so no key schedule runs per token. A context serves one
/// MAC at a time: each thread takes its own shard's (`Shards`), so the server's workers neither wait
/// for one another nor share a context's memory.
final class KeyedMAC: Sendable {
    private let contexts: Shards<Context>

    /// A MAC keyed with `key`; a libcrypto that cannot make one stops the process, as no token could be
    /// made or checked.
    init(key: [UInt8]) {
        contexts = Shards { _ in
            guard let context = COpenSSL_keyedHMAC(key, key.count) else {
                preconditionFailure("libcrypto could not make an HMAC-SHA256 context")
            }
            return Context(pointer: context)
        }
    }

    /// Writes the MAC of `message` into the 32 bytes at `mac`.
    func write(_ message: UnsafeBufferPointer<UInt8>, into mac: UnsafeMutablePointer<UInt8>) {
        let done = contexts.withLock { COpenSSL_mac($0.pointer, message.baseAddress, message.count, mac) }
        precondition(done, "libcrypto's HMAC failed")
    }

    /// One keyed context, freed with its shard. `@unchecked Sendable`: used only under its shard's lock.
    private struct Context: ~Copyable, @unchecked Sendable {
        let pointer: OpaquePointer
        deinit { EVP_MAC_CTX_free(pointer) }
    }
}
