import Foundation
import Testing

@testable import FormServer

@Suite struct CSRFGuardTests {
    let guardian = CSRFGuard(secret: "s3cret")

    @Test func tokenVerifiesOnlyForItsFormAndNonce() {
        let nonce = guardian.newNonce()
        let token = guardian.token(formID: "event", nonce: nonce)
        #expect(guardian.verify(token: token, formID: "event", nonce: nonce))
        #expect(!guardian.verify(token: token, formID: "pets", nonce: nonce))
        #expect(!guardian.verify(token: token, formID: "event", nonce: guardian.newNonce()))
        #expect(!guardian.verify(token: nil, formID: "event", nonce: nonce))
        #expect(!guardian.verify(token: token, formID: "event", nonce: nil))
    }

    /// A new reader's cookie carries a fresh nonce, and the token given with it is that nonce's: what
    /// `cookie(nonce:)` and `token(formID:nonce:)` give for it, for either cookie name.
    @Test func aNewReadersCookieAndTokenAgree() throws {
        for guardian in [guardian, CSRFGuard(secret: "s3cret", secureCookie: true)] {
            let first = guardian.newReader(formID: "event")
            let second = guardian.newReader(formID: "event")
            #expect(first.cookie != second.cookie)
            let prefix = "\(guardian.cookieName)="
            #expect(first.cookie.hasPrefix(prefix))
            let nonce = String(first.cookie.dropFirst(prefix.count).prefix { $0 != ";" })
            #expect(CSRFGuard.isWellFormed(nonce: nonce))
            #expect(first.cookie == guardian.cookie(nonce: nonce))
            #expect(first.token == guardian.token(formID: "event", nonce: nonce))
            #expect(guardian.verify(token: first.token, formID: "event", nonce: nonce))
        }
    }

    @Test func instancesSharingASecretAcceptEachOthersTokens() {
        let nonce = guardian.newNonce()
        let token = guardian.token(formID: "event", nonce: nonce)
        #expect(CSRFGuard(secret: "s3cret").verify(token: token, formID: "event", nonce: nonce))
        #expect(!CSRFGuard(secret: "other").verify(token: token, formID: "event", nonce: nonce))
        #expect(!CSRFGuard.random().verify(token: token, formID: "event", nonce: nonce))
    }

    @Test func malformedNoncesAreRefused() {
        #expect(CSRFGuard.isWellFormed(nonce: guardian.newNonce()))
        for bad in ["", "short", String(repeating: "a", count: 23), "aaaaaaaaaaaaaaaaaaaa;="] {
            #expect(!CSRFGuard.isWellFormed(nonce: bad))
        }
    }
}

@Suite struct CSRFTokenFormatTests {
    /// The token is HMAC-SHA256(SHA256(secret), "csrf\0" + form id + "\0" + nonce) in unpadded
    /// base64url. The expected tokens were computed with Python's hmac and hashlib modules, as
    /// bench/event-body.sh computes the benchmark's: one message within a SHA-256 block, one over
    /// it, one under an empty secret.
    @Test(arguments: [
        ("bench-secret", "event", "AAAAAAAAAAAAAAAAAAAAAA", "abBzn6YNDWGp4wskGw99-v8wtMM1-ooJ7Rk_gZuYYH0"),
        (
            "s3cret", "a-form-id-long-enough-that-the-message-spans-two-sha256-blocks", "Zm9ybXdyaWdodC1ub25jZQ",
            "GANECbEiqY26PDtB28Q6pMkxlM_zZ3MckCjo5nSIe7M"
        ),
        ("", "pets", "0123456789abcdefABCD-_", "pzQxDRFcyP-EONWw-BcsAb4ioC26FYIwAfavwXkDCiw"),
    ])
    func tokenIsStandardHMACInBase64url(secret: String, formID: String, nonce: String, expected: String) {
        let guardian = CSRFGuard(secret: secret)
        #expect(guardian.token(formID: formID, nonce: nonce) == expected)
        #expect(guardian.verify(token: expected, formID: formID, nonce: nonce))
    }

    /// The HMAC itself against RFC 4231's HMAC-SHA-256 test cases 1–4, 6 and 7 (5 truncates its
    /// output): keys shorter than a block, and keys longer (hashed first); and a key of exactly one
    /// block (64 bytes, used as it is), its MAC from Python's hmac module.
    @Test(
        arguments: [
            (
                bytes(0x0b, 20), Array("Hi There".utf8),
                "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
            ),
            (
                Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
            ),
            (bytes(0xaa, 20), bytes(0xdd, 50), "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
            (
                Array(1...25), bytes(0xcd, 50), "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
            ),
            (
                bytes(0xaa, 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
            ),
            (
                bytes(0xaa, 131),
                Array(
                    ("This is a test using a larger than block-size key and a larger than block-size data. The key "
                        + "needs to be hashed before being used by the HMAC algorithm.").utf8),
                "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
            ),
            (
                Array(0..<64), Array("a key of exactly one block".utf8),
                "4160934932697efcd68b6416b5ef5d5f636b1117cf3e740649df906895cd9186"
            ),
        ] as [([UInt8], [UInt8], String)])
    func hmacMatchesRFC4231(key: [UInt8], message: [UInt8], expected: String) {
        let mac = CSRFGuard.hmac(message, key: key)
        #expect(mac.map { String(format: "%02x", $0) }.joined() == expected)
    }

    /// Messages either side of one block, the empty message and a whole block, against Python's hmac
    /// module (`hmac.new(b"Jefe", b"a" * n, hashlib.sha256)`).
    @Test(
        arguments: [
            (0, "923598ca6d64af2a5dba79dcd021a8a0fe5c5f557519adaaf0ad532d4506dd30"),
            (55, "290d2fb7eb5dfb608a006bada9a090a9b6d03702b321a59375214b24e0f8e265"),
            (56, "cca8b237675f240577a563326cdb3c4dcc8025863d4bde2f80b791ae487157dd"),
            (64, "2213fe4597fb22997da920e89da4e545b17a89b729261d708d75833af149fe53"),
        ])
    func hmacIsTheSameEitherSideOfOneBlock(count: Int, expected: String) {
        let mac = CSRFGuard.hmac(bytes(UInt8(ascii: "a"), count), key: Array("Jefe".utf8))
        #expect(mac.map { String(format: "%02x", $0) }.joined() == expected)
    }
}

/// `count` copies of `byte`.
private func bytes(_ byte: UInt8, _ count: Int) -> [UInt8] { [UInt8](repeating: byte, count: count) }

@Suite struct NonceTests {
    /// Every nonce is well formed, 128 bits wide, and unlike every other.
    @Test func noncesAreWellFormedAndNeverRepeat() {
        let guardian = CSRFGuard(secret: "s3cret")
        let nonces = (0..<1000).map { _ in guardian.newNonce() }
        #expect(nonces.allSatisfy(CSRFGuard.isWellFormed))
        #expect(Set(nonces).count == nonces.count)
    }

    /// Each bit of a nonce is set about half the time: a source that handed out zeroes would fail this.
    @Test func nonceBitsLookRandom() {
        let guardian = CSRFGuard(secret: "s3cret")
        var ones = 0
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        for _ in 0..<512 {
            // The first 21 characters carry 6 bits each; the last carries the remaining 2.
            for (index, byte) in guardian.newNonce().utf8.enumerated() {
                let value = alphabet.firstIndex(of: byte) ?? 0
                ones += index < 21 ? value.nonzeroBitCount : (value >> 4).nonzeroBitCount
            }
        }
        let bits = 512 * 128
        #expect(abs(ones - bits / 2) < bits / 50)
    }

    @Test func cookieGivesTheNonceForFormPathsOnly() {
        let guardian = CSRFGuard.random()
        let nonce = guardian.newNonce()
        #expect(guardian.cookieName == "fw_csrf")
        #expect(guardian.cookie(nonce: nonce) == "fw_csrf=\(nonce); Path=/forms; HttpOnly; SameSite=Lax")
    }

    /// Behind HTTPS the cookie is a `__Host-` one: `Secure`, `Path=/`, no `Domain` (RFC 6265bis §4.1.3.2).
    @Test func secureCookieIsAHostCookie() {
        let guardian = CSRFGuard(secret: "s", secureCookie: true)
        let nonce = guardian.newNonce()
        #expect(guardian.cookieName == "__Host-fw_csrf")
        #expect(guardian.cookie(nonce: nonce) == "__Host-fw_csrf=\(nonce); Path=/; Secure; HttpOnly; SameSite=Lax")
        // The secret signs alike whatever the cookie is called: instances may switch without new tokens.
        #expect(guardian.token(formID: "f", nonce: nonce) == CSRFGuard(secret: "s").token(formID: "f", nonce: nonce))
    }
}
