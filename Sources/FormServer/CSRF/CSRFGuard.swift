import Crypto
import Foundation

/// CSRF protection for browser posts: a signed double-submit cookie (OWASP's "signed double-submit
/// cookie" pattern).
///
/// A browser gets a random nonce in an `HttpOnly`, `SameSite=Lax` cookie; each page carries
/// `HMAC-SHA256(secret, form id + nonce)` in a hidden `_csrf` field. A post is accepted only when the
/// field matches the cookie it came with: another site can make a browser send the cookie, but cannot
/// read it or compute the token without the secret. No server-side state, so any instance that shares
/// `FORMWRIGHT_SECRET` accepts the tokens of any other.
public struct CSRFGuard: Sendable {
    /// The cookie holding the nonce.
    public static let cookieName = "fw_csrf"
    /// HMAC's inner and outer hashes with the padded key already absorbed (RFC 2104 §2): each token then
    /// costs two short hashes, not a key schedule.
    private let inner: SHA256
    private let outer: SHA256

    /// A guard signing with `secret` (any text; it is hashed into a 256-bit key).
    public init(secret: String) {
        let key = Array(SHA256.hash(data: Data(secret.utf8))) + [UInt8](repeating: 0, count: 32)
        var inner = SHA256()
        inner.update(data: key.map { $0 ^ 0x36 })
        var outer = SHA256()
        outer.update(data: key.map { $0 ^ 0x5C })
        self.inner = inner
        self.outer = outer
    }

    /// A guard with a random secret: tokens die with the process and are not shared between instances.
    public static func random() -> CSRFGuard {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return CSRFGuard(secret: Data(bytes).base64EncodedString())
    }

    /// A fresh nonce for a browser that has none: 128 random bits, base64url.
    public func newNonce() -> String {
        // Two 64-bit draws, not sixteen byte-sized ones: each draw is a getrandom(2) call.
        var generator = SystemRandomNumberGenerator()
        let words = [generator.next(), generator.next()] as [UInt64]
        return Self.base64url(words.flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> ($0 * 8)) } })
    }

    /// Whether `nonce` has the shape `newNonce()` gives (a cookie is client input like any other).
    public static func isWellFormed(nonce: String) -> Bool {
        nonce.utf8.count == 22 && nonce.utf8.allSatisfy { Self.base64urlAlphabet.contains($0) }
    }

    /// The token for form `formID` and the browser holding `nonce`.
    public func token(formID: String, nonce: String) -> String {
        var inner = self.inner
        inner.update(data: Array("csrf\u{0}\(formID)\u{0}\(nonce)".utf8))
        var outer = self.outer
        outer.update(data: Array(inner.finalize()))
        return Self.base64url(Array(outer.finalize()))
    }

    /// Whether `token` is the one for `formID` and `nonce`, compared in constant time.
    public func verify(token: String?, formID: String, nonce: String?) -> Bool {
        guard let token, let nonce, Self.isWellFormed(nonce: nonce) else { return false }
        let expected = Array(self.token(formID: formID, nonce: nonce).utf8)
        let given = Array(token.utf8)
        guard expected.count == given.count else { return false }
        return zip(expected, given).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// The `Set-Cookie` value that gives a browser `nonce`.
    public static func cookie(nonce: String) -> String {
        "\(cookieName)=\(nonce); Path=/forms; HttpOnly; SameSite=Lax"
    }

    private static let base64urlAlphabet = Set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// RFC 4648 §5 base64url without padding, written out: Foundation's string replacing was a tenth
    /// of a submission's cost in the benchmark.
    private static func base64url(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var bits = 0
            for (offset, byte) in chunk.enumerated() { bits |= Int(byte) << (16 - 8 * offset) }
            for position in 0...chunk.count { output.append(alphabet[(bits >> (18 - 6 * position)) & 63]) }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
