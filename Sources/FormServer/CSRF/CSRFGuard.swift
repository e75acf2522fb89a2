private import COpenSSL
import Foundation
import HTTPServer

/// CSRF protection for browser posts: a signed double-submit cookie (OWASP's "signed double-submit
/// cookie" pattern).
///
/// A browser gets a random nonce in an `HttpOnly`, `SameSite=Lax` cookie; each page carries
/// `HMAC-SHA256(secret, form id + nonce)` in a hidden `_csrf` field. A post is accepted only when the
/// field matches the cookie it came with: another site can make a browser send the cookie, but cannot
/// read it or compute the token without the secret. No server-side state, so any instance that shares
/// `FORMWRIGHT_SECRET` accepts the tokens of any other.
///
/// Behind HTTPS (`secureCookie`), the cookie is `__Host-fw_csrf`, `Secure`, for the whole site: a
/// browser then never sends it over plain HTTP, and no sibling subdomain or plain-HTTP page can set it
/// (RFC 6265bis §4.1.3.2).
public struct CSRFGuard: Sendable {
    /// The cookie holding the nonce over plain HTTP.
    public static let cookieName = "fw_csrf"
    /// The cookie holding the nonce behind HTTPS.
    public static let secureCookieName = "__Host-fw_csrf"
    /// The cookie this guard reads and sets: `cookieName`, or `secureCookieName` when `secureCookie`.
    public let cookieName: String
    /// `name=` and the attributes after the nonce, laid out once.
    private let cookiePrefix: [UInt8]
    private let cookieAttributes: [UInt8]
    /// HMAC-SHA256 keyed with the SHA-256 digest of the secret.
    private let mac: KeyedMAC

    /// A guard signing with `secret` (any text; it is hashed into a 256-bit key); `secureCookie` for a
    /// site served over HTTPS (by a TLS-terminating proxy in front, say).
    public init(secret: String, secureCookie: Bool = false) {
        cookieName = secureCookie ? Self.secureCookieName : Self.cookieName
        cookiePrefix = Array("\(cookieName)=".utf8)
        cookieAttributes = Array(
            (secureCookie ? "; Path=/; Secure; HttpOnly; SameSite=Lax" : "; Path=/forms; HttpOnly; SameSite=Lax").utf8)
        var digest = [UInt8](repeating: 0, count: 32)
        var secret = secret
        let hashed = secret.withUTF8 { EVP_Digest($0.baseAddress, $0.count, &digest, nil, EVP_sha256(), nil) }
        precondition(hashed == 1, "libcrypto could not hash the CSRF secret")
        mac = KeyedMAC(key: digest)
        OPENSSL_cleanse(&digest, digest.count)
    }

    /// HMAC-SHA256 of `message` under `key`: the guard's MAC on bytes, for RFC 4231's test vectors.
    static func hmac(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: 32)
        message.withUnsafeBufferPointer { message in
            mac.withUnsafeMutableBufferPointer { KeyedMAC(key: key).write(message, into: $0.baseAddress!) }
        }
        return mac
    }

    /// A guard with a random secret: tokens die with the process and are not shared between instances.
    public static func random(secureCookie: Bool = false) -> CSRFGuard {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return CSRFGuard(secret: Data(bytes).base64EncodedString(), secureCookie: secureCookie)
    }

    /// A fresh nonce for a browser that has none: 128 random bits, base64url.
    public func newNonce() -> String {
        String(unsafeUninitializedCapacity: Self.nonceByteCount) { text in
            // The buffer may be larger than asked for: the nonce takes its first `nonceByteCount` bytes.
            let nonce = UnsafeMutableBufferPointer(rebasing: text[..<Self.nonceByteCount])
            return writeNewNonce(into: UnsafeMutableRawBufferPointer(nonce)) ? nonce.count : 0
        }
    }

    /// For a reader who has no nonce yet: the `Set-Cookie` value giving it a fresh one (`cookie(nonce:)`),
    /// and the token of form `formID` for that nonce (`token(formID:nonce:)`). The nonce is written
    /// straight into the cookie, and read there for the token: no string is made of it alone.
    public func newReader(formID: String) -> (cookie: String, token: String) {
        var token = ""
        let count = cookiePrefix.count + Self.nonceByteCount + cookieAttributes.count
        let cookie = String(unsafeUninitializedCapacity: count) { text in
            cookiePrefix.withUnsafeBufferPointer { prefix in
                cookieAttributes.withUnsafeBufferPointer { attributes in
                    let start = Self.copy(prefix, into: text, at: 0)
                    let nonce = UnsafeMutableBufferPointer(rebasing: text[start..<(start + Self.nonceByteCount)])
                    _ = writeNewNonce(into: UnsafeMutableRawBufferPointer(nonce))
                    token = withToken(formID: formID, nonce: UnsafeBufferPointer(nonce)) {
                        String(decoding: $0, as: UTF8.self)
                    }
                    return Self.copy(attributes, into: text, at: start + Self.nonceByteCount)
                }
            }
        }
        return (cookie, token)
    }

    /// Writes a fresh nonce's base64url bytes into `slot`: what `newNonce()` gives. False, writing
    /// nothing, unless `slot` has exactly `nonceByteCount` bytes.
    private func writeNewNonce(into slot: UnsafeMutableRawBufferPointer) -> Bool {
        guard slot.count == Self.nonceByteCount, let base = slot.baseAddress else { return false }
        let text = UnsafeMutableBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: slot.count)
        // From the system's generator for each nonce, in one call (glibc's arc4random_buf is getrandom(2)):
        // nothing random is kept.
        var bits: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &bits) { arc4random_buf($0.baseAddress!, $0.count) }
        withUnsafeBytes(of: bits) { _ = Self.base64url($0, into: text) }
        return true
    }

    /// How many bytes a nonce has: 128 bits in base64url.
    public static let nonceByteCount = base64urlCount(16)

    /// Whether `nonce` has the shape `newNonce()` gives (a cookie is client input like any other).
    public static func isWellFormed(nonce: String) -> Bool {
        // Read through its contiguous bytes, not the generic walk over a string's UTF-8 view.
        var nonce = nonce
        return nonce.withUTF8 { $0.count == nonceByteCount && $0.allSatisfy(isBase64url) }
    }

    /// How many bytes a token has: a SHA-256 MAC in base64url.
    public static let tokenByteCount = base64urlCount(32)

    /// The token for form `formID` and the browser holding `nonce`.
    public func token(formID: String, nonce: String) -> String {
        withToken(formID: formID, nonce: nonce) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the token's base64url bytes, written on the stack: what `token(formID:nonce:)`
    /// gives, without making a string of it.
    private func withToken<Result>(
        domain: StaticString = Self.domain, formID: String, nonce: String,
        _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        var nonce = nonce
        return nonce.withUTF8 { withToken(domain: domain, formID: formID, nonce: $0, body) }
    }

    /// `withToken(formID:nonce:_:)` for a nonce given as its bytes.
    private func withToken<Result>(
        domain: StaticString = Self.domain, formID: String, nonce: UnsafeBufferPointer<UInt8>,
        _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        var formID = formID
        // `csrf\0<form id>\0<nonce>` is laid out on the stack and hashed in one call, the MAC beside it.
        return formID.withUTF8 { formID in
            let domain = UnsafeBufferPointer(start: domain.utf8Start, count: domain.utf8CodeUnitCount)
            let count = domain.count + formID.count + 1 + nonce.count
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count + 32) { buffer in
                let message = UnsafeMutableBufferPointer(rebasing: buffer[..<count])
                let end = Self.copy(formID, into: message, at: Self.copy(domain, into: message, at: 0))
                message[end] = 0
                _ = Self.copy(nonce, into: message, at: end + 1)
                let mac = UnsafeMutableBufferPointer(rebasing: buffer[count...])
                self.mac.write(UnsafeBufferPointer(message), into: mac.baseAddress!)
                return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.tokenByteCount) { text in
                    body(
                        UnsafeBufferPointer(rebasing: text[..<Self.base64url(UnsafeRawBufferPointer(mac), into: text)]))
                }
            }
        }
    }

    /// What every token's message starts with: tokens are for this use only. A static string, read
    /// through its pointer: a global array was reached through its lazy initializer on every token.
    private static let domain: StaticString = "csrf\u{0}"

    /// Whether `token` is the one for `formID` and `nonce`, compared in constant time.
    public func verify(token: String?, formID: String, nonce: String?) -> Bool {
        guard let token, let nonce, Self.isWellFormed(nonce: nonce) else { return false }
        return verify(signature: token, domain: Self.domain, formID: formID, nonce: nonce)
    }

    /// The signature of `value` for `subject` in `domain`: the server's other signed values (an edit
    /// link's submission id, `domain` "edit\0", for its form), made as tokens are but under another
    /// domain, so no signature of one kind is ever a valid one of another.
    func signature(of value: String, for subject: String, domain: StaticString) -> String {
        withToken(domain: domain, formID: subject, nonce: value) { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether `signature` is `signature(of: value, for: subject, domain: domain)`, compared in constant time.
    func verify(signature: String, of value: String, for subject: String, domain: StaticString) -> Bool {
        verify(signature: signature, domain: domain, formID: subject, nonce: value)
    }

    /// Whether `signature` is the token of `formID` and `nonce` (of any shape) in `domain`.
    private func verify(signature: String, domain: StaticString, formID: String, nonce: String) -> Bool {
        var given = signature
        // The expected token is compared where it was written, on the stack: no string is built.
        return withToken(domain: domain, formID: formID, nonce: nonce) { expected in
            given.withUTF8 { given in
                guard expected.count == given.count else { return false }
                var difference: UInt8 = 0
                for index in 0..<expected.count { difference |= expected[index] ^ given[index] }
                return difference == 0
            }
        }
    }

    /// The `Set-Cookie` value that gives a browser `nonce`.
    public func cookie(nonce: String) -> String {
        // Copied into the string's storage part by part, without interpolation's intermediate strings.
        var nonce = nonce
        return nonce.withUTF8 { nonce in
            String(unsafeUninitializedCapacity: cookiePrefix.count + nonce.count + cookieAttributes.count) { text in
                cookiePrefix.withUnsafeBufferPointer { prefix in
                    cookieAttributes.withUnsafeBufferPointer { attributes in
                        let end = Self.copy(nonce, into: text, at: Self.copy(prefix, into: text, at: 0))
                        return Self.copy(attributes, into: text, at: end)
                    }
                }
            }
        }
    }

    /// Copies `part` into `buffer` at `index`, in one `memcpy` (a generic copy from a collection became
    /// a loop of its own at each use); returns the index after it.
    private static func copy(
        _ part: UnsafeBufferPointer<UInt8>, into buffer: UnsafeMutableBufferPointer<UInt8>, at index: Int
    ) -> Int {
        guard let source = part.baseAddress else { return index }
        (buffer.baseAddress! + index).initialize(from: source, count: part.count)
        return index + part.count
    }

    /// A static string, read through its pointer: no array to retain per token.
    private static let base64urlAlphabet: StaticString =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    private static func isBase64url(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    /// How many characters `base64url` writes for `count` bytes.
    private static func base64urlCount(_ count: Int) -> Int { (count * 4 + 2) / 3 }

    /// Writes the RFC 4648 §5 base64url text of `bytes`, without padding, at the start of `output`
    /// (which holds at least `base64urlCount(bytes.count)`); returns its length. Written out, through
    /// pointers: every page and post encodes a token, and a new reader's page a nonce too.
    private static func base64url(
        _ bytes: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        precondition(output.count >= base64urlCount(bytes.count), "no room for the base64url text")
        guard let input = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), let out = output.baseAddress else {
            return 0
        }
        let alphabet = base64urlAlphabet.utf8Start
        // Masked shifts and wrapping sums: the operands are known small, so no overflow check is needed.
        var written = 0
        var index = 0
        // Whole groups of three bytes become four characters.
        while index &+ 3 <= bytes.count {
            let bits = UInt32(input[index]) &<< 16 | UInt32(input[index &+ 1]) &<< 8 | UInt32(input[index &+ 2])
            out[written] = alphabet[Int(bits &>> 18)]
            out[written &+ 1] = alphabet[Int(bits &>> 12 & 63)]
            out[written &+ 2] = alphabet[Int(bits &>> 6 & 63)]
            out[written &+ 3] = alphabet[Int(bits & 63)]
            written &+= 4
            index &+= 3
        }
        // One or two bytes left: two or three characters, no padding.
        let rest = bytes.count &- index
        guard rest > 0 else { return written }
        var bits = UInt32(input[index]) &<< 16
        if rest == 2 { bits |= UInt32(input[index &+ 1]) &<< 8 }
        for position in 0...rest {
            out[written] = alphabet[Int(bits &>> UInt32(18 &- 6 &* position) & 63)]
            written &+= 1
        }
        return written
    }
}
