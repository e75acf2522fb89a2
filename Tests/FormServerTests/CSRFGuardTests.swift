import Crypto
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
    /// The token is HMAC-SHA256(SHA256(secret), "csrf\0" + form id + "\0" + nonce) in unpadded base64url:
    /// what bench/submit-event.sh computes with Python's hmac module, checked here against swift-crypto's HMAC.
    @Test func tokenIsStandardHMACInBase64url() {
        let nonce = "AAAAAAAAAAAAAAAAAAAAAA"
        let key = SymmetricKey(data: SHA256.hash(data: Data("bench-secret".utf8)))
        let mac = HMAC<SHA256>.authenticationCode(for: Data("csrf\u{0}event\u{0}\(nonce)".utf8), using: key)
        let expected = Data(mac).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        #expect(CSRFGuard(secret: "bench-secret").token(formID: "event", nonce: nonce) == expected)
    }
}

@Suite struct NonceTests {
    /// Nonces come from a pool refilled every 256 of them: across several refills every nonce is
    /// well formed, 128 bits wide, and unlike every other.
    @Test func noncesAreWellFormedAndNeverRepeatAcrossPoolRefills() {
        let guardian = CSRFGuard(secret: "s3cret")
        let nonces = (0..<1000).map { _ in guardian.newNonce() }
        #expect(nonces.allSatisfy(CSRFGuard.isWellFormed))
        #expect(Set(nonces).count == nonces.count)
    }

    /// Each bit of the pool's output is set about half the time: a pool that handed out zeroes
    /// (say, the wiped bytes) would fail this.
    @Test func poolBytesLookRandom() {
        var ones = 0
        for _ in 0..<512 {
            let (high, low) = RandomPool.shared.next128()
            ones += high.nonzeroBitCount + low.nonzeroBitCount
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
