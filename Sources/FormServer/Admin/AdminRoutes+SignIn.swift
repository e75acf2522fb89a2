import FormHTML
import FormStore
import Foundation
import HTTPServer
import Logging
import Synchronization

/// Signing in and out of the operator's view.
extension AdminRoutes {
    /// How long a wrong key waits for its answer: a guesser's every try costs a second.
    static let wrongKeyDelay: Duration = .seconds(1)

    /// `GET /admin/sign-in?next=…`: the form, with a fresh nonce in its cookie and its token.
    func signInPage(_ request: Request) async -> Response {
        let texts = Self.texts(request)
        let notice =
            request.query["ended"] != nil ? texts.sessionEnded : request.query["out"] != nil ? texts.signedOut : nil
        return signInForm(texts: texts, next: Self.destination(request.query["next"]), notice: notice, status: .ok)
    }

    /// `POST /admin/sign-in`: a key that this store knows and that may read opens a session and goes
    /// on to `next`; a wrong one is answered a second late and counted against its address.
    func signIn(_ request: Request) async -> Response {
        let texts = Self.texts(request)
        let fields = QueryParameters.parse(urlencoded: request.body) ?? QueryParameters()
        let next = Self.destination(fields["next"])
        let refuse = { (status: HTTPStatus, problem: String) in
            signInForm(texts: texts, next: next, problem: problem, status: status)
        }
        guard access.verify(fields["_csrf"], nonce: request.cookie(named: access.nonceCookieName)) else {
            return refuse(.forbidden, texts.staleSignIn)
        }
        let address = request.remoteAddress?.ip ?? "unknown"
        let now = Date().milliseconds
        let given = (fields["key"] ?? "").trimmingCharacters(in: .whitespaces)
        guard !given.isEmpty else { return refuse(.badRequest, texts.emptyKey) }
        let attempt = throttle.reserve(address, now: now)
        if let wait = attempt.wait {
            var response = refuse(
                .tooManyRequests, texts.tooManyAttempts.filling(["minutes": String(wait / 60_000 + 1)]))
            response.headers["Retry-After"] = String(wait / 1000 + 1)
            return response
        }
        guard let database else {
            return Self.message(.notFound, texts.noStoreTitle, texts.noStore, texts: texts)
        }
        let outcome = await Blocking.run { [access] in
            Result { () throws(StoreError) -> SignInOutcome in
                guard let key = try APIKey.key(given, in: database) else { return .wrongKey }
                guard key.scopes.contains(APIKey.Scope.read.rawValue) else { return .cannotRead }
                let token = access.newSessionToken()
                try database.openSession(
                    AdminSession(hash: AdminAccess.hash(token), keyHash: key.hash, expires: now + access.lifetime),
                    now: now)
                return .opened(session: token, keyName: key.name)
            }
        }
        switch outcome {
        case .failure(let error):
            logger.error("the store did not answer a sign-in", metadata: ["error": "\(error)"])
            var response = Self.message(.serviceUnavailable, texts.unavailableTitle, texts.unavailable, texts: texts)
            response.headers["Retry-After"] = "5"
            return response
        case .success(.wrongKey):
            throttle.failed()
            logger.warning(
                "operator sign-in refused: a wrong key",
                metadata: [
                    "address": "\(address)", "attempts from it": "\(attempt.attempts)",
                    "wrong keys since start": "\(throttle.total.load(ordering: .relaxed))",
                ])
            try? await Task.sleep(for: Self.wrongKeyDelay)
            return refuse(.unauthorized, texts.wrongKey)
        case .success(.cannotRead):
            return refuse(.forbidden, texts.noReadScope)
        case .success(.opened(let session, let keyName)):
            throttle.succeed(address)
            logger.notice("operator signed in", metadata: ["key": "\(keyName)", "address": "\(address)"])
            var response = Response.redirect(to: next)
            response.headers["Cache-Control"] = "no-store"
            response.headers.add(
                "Set-Cookie", access.cookie(access.cookieName, session, maxAge: access.lifetime / 1000))
            response.headers.add("Set-Cookie", access.removal(access.nonceCookieName))
            return response
        }
    }

    /// What a key sent to sign in came to.
    private enum SignInOutcome: Sendable {
        /// No key of this store.
        case wrongKey
        /// A key without the `read` scope.
        case cannotRead
        /// A session, opened: its cookie's value, and the key's name.
        case opened(session: String, keyName: String)
    }

    /// `POST /admin/sign-out`: the session ends in the store, and its cookie in the browser.
    func signOut(_ context: Context) throws -> Response {
        try context.database.closeSession(hash: AdminAccess.hash(context.session))
        logger.notice("operator signed out", metadata: ["key": "\(context.key.name)"])
        var response = Response.redirect(to: "/admin/sign-in?out=1")
        response.headers["Cache-Control"] = "no-store"
        response.headers.add("Set-Cookie", access.removal(access.cookieName))
        return response
    }

    /// The sign-in form with a fresh nonce: its cookie goes with the page.
    private func signInForm(
        texts: AdminTexts, next: String, notice: String? = nil, problem: String? = nil, status: HTTPStatus
    ) -> Response {
        let nonce = access.newNonce()
        let page = AdminPages.signIn(
            texts: texts, csrf: access.token(nonce: nonce), next: next, notice: notice, problem: problem)
        var response = Self.html(status, page)
        response.headers.add("Set-Cookie", access.cookie(access.nonceCookieName, nonce))
        return response
    }

    /// Where a sign-in goes on to: `next` when it is a page of the view on this site, else the overview.
    static func destination(_ next: String?) -> String {
        guard let next, next == "/admin" || next.hasPrefix("/admin/") || next.hasPrefix("/admin?"),
            !next.contains("\\"), !next.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else { return "/admin" }
        return next
    }
}
