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
