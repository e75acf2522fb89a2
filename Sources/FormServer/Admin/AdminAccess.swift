import FormStore
import Foundation
import HTTPServer

/// How an operator proves who they are to the operator's view: a session opened by signing in with an
/// API key that may read, held in a cookie.
///
/// The cookie holds 256 random bits; the store keeps only their SHA-256, with the key's hash and the
/// session's end, so a copy of the store opens no session, every server sharing the store knows every
/// session, and revoking the key ends its sessions. The cookie is `HttpOnly` and `SameSite=Strict`,
/// for `/admin` only (behind HTTPS, `__Host-fw_admin`, `Secure`, for the whole site as that prefix
/// requires). Every post also carries a token signed with the server's secret over the session's
/// cookie (the sign-in form, over a nonce in a cookie of its own), which another site cannot read.
struct AdminAccess: Sendable {
    /// The session cookie's name.
    let cookieName: String
    /// The sign-in form's nonce cookie's name.
    let nonceCookieName: String
    /// What follows a cookie's value.
    private let attributes: String
    /// How long a session lasts from sign-in, in milliseconds.
    let lifetime: UInt64
    /// Signs the posts' tokens.
    private let csrf: CSRFGuard

    init(csrf: CSRFGuard, secureCookies: Bool, lifetime: Duration) {
        self.csrf = csrf
        cookieName = secureCookies ? "__Host-fw_admin" : "fw_admin"
        nonceCookieName = secureCookies ? "__Host-fw_admin_sign_in" : "fw_admin_sign_in"
        attributes =
            secureCookies ? "; Path=/; Secure; HttpOnly; SameSite=Strict" : "; Path=/admin; HttpOnly; SameSite=Strict"
        let (seconds, attoseconds) = lifetime.components
        self.lifetime = UInt64(max(seconds, 0)) * 1000 + UInt64(max(attoseconds, 0) / 1_000_000_000_000_000)
    }

    /// A new session's cookie value: 256 random bits.
    func newSessionToken() -> String { csrf.newNonce() + csrf.newNonce() }

    /// A new sign-in form's nonce: 128 random bits.
    func newNonce() -> String { csrf.newNonce() }

    /// The SHA-256 of `token` in hex: what the store keeps of a session.
    static func hash(_ token: String) -> String { APIKey.hash(token) }

    /// The token a signed-in page's posts carry.
    func token(session: String) -> String { csrf.signature(of: session, for: "session", domain: Self.domain) }

    /// The token the sign-in form carries, for the nonce in its cookie.
    func token(nonce: String) -> String { csrf.signature(of: nonce, for: "sign-in", domain: Self.domain) }

    /// Whether `token` is the one for session `session`, compared in constant time.
    func verify(_ token: String?, session: String) -> Bool {
        guard let token else { return false }
        return csrf.verify(signature: token, of: session, for: "session", domain: Self.domain)
    }

    /// Whether `token` is the one for sign-in nonce `nonce`, compared in constant time.
    func verify(_ token: String?, nonce: String?) -> Bool {
        guard let token, let nonce, CSRFGuard.isWellFormed(nonce: nonce) else { return false }
        return csrf.verify(signature: token, of: nonce, for: "sign-in", domain: Self.domain)
    }

    /// Tokens of the operator's view are for it alone (`CSRFGuard.signature`'s domains).
    private static let domain: StaticString = "admin\u{0}"

    /// `Set-Cookie` for `name` holding `value`, ending with the browser's session unless `maxAge` (seconds).
    func cookie(_ name: String, _ value: String, maxAge: UInt64? = nil) -> String {
        name + "=" + value + attributes + (maxAge.map { "; Max-Age=\($0)" } ?? "")
    }

    /// `Set-Cookie` that removes cookie `name`.
    func removal(_ name: String) -> String { name + "=" + attributes + "; Max-Age=0" }

    /// The session `request`'s cookie names, open at `now`, with its key; nil for none, one that ended,
    /// or one whose key was revoked. A blocking call.
    func session(
        _ request: Request, in database: any SubmissionDatabase, now: UInt64
    ) throws(StoreError) -> (token: String, key: StoredKey)? {
        guard let token = request.cookie(named: cookieName), token.utf8.count == 2 * CSRFGuard.nonceByteCount else {
            return nil
        }
        guard let open = try database.session(hash: Self.hash(token), now: now) else { return nil }
        return (token, open.key)
    }
}
