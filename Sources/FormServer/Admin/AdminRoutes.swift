import FormEngine
import FormHTML
import FormModel
import FormStore
import Foundation
import HTTPServer
import Logging

/// `/admin`: the operator's view of the submissions a database keeps, behind sign-in with an API key
/// that may read (`AdminAccess`). Every page but sign-in runs through `page`: a session, the `read`
/// scope, the form the key may read, the scope the page needs besides, and on a post its token, in
/// that order, before the page's own work runs off the server's threads.
struct AdminRoutes: Sendable {
    /// The store; nil when the server keeps none, and the view says so.
    let database: (any SubmissionDatabase)?
    /// The forms served, by id, and in the catalog's order.
    let forms: [String: CompiledForm]
    let order: [String]
    let access: AdminAccess
    let throttle: SignInThrottle
    /// The forms that deliver: the overview counts their failed deliveries.
    let delivering: Set<String>
    let logger: Logger

    func add(to routes: inout RouterBuilder) {
        routes.on(.get, "/admin", async: { request in await page(request) { try overview($0) } })
        routes.on(.get, "/admin/sign-in", async: { request in await signInPage(request) })
        routes.on(.post, "/admin/sign-in", async: { request in await signIn(request) })
        routes.on(.post, "/admin/sign-out", async: { request in await page(request, post: true) { try signOut($0) } })
        let form = "/admin/forms/{id}"
        routes.on(.get, form, async: { request in await page(request) { try submissions($0) } })
        routes.on(.get, form + "/charts", async: { request in await page(request) { try charts($0) } })
        routes.on(
            .get, form + "/export.csv", async: { request in await page(request, .export) { try export($0, csv: true) } }
        )
        routes.on(
            .get, form + "/export.jsonl",
            async: { request in await page(request, .export) { try export($0, csv: false) } })
        let one = form + "/submissions/{sid}"
        routes.on(.get, one, async: { request in await page(request) { try submission($0) } })
        routes.on(.get, one + "/files/{tag}", async: { request in await page(request) { try download($0) } })
        routes.on(.get, one + "/delete", async: { request in await page(request, .delete) { try confirmDelete($0) } })
        routes.on(
            .post, one + "/delete", async: { request in await page(request, .delete, post: true) { try delete($0) } })
    }

    /// What a page's work is given: the request, the store, the key signed in with, the session's
    /// cookie, the frame every page draws, and the form the address names, if it names one.
    struct Context {
        let request: Request
        let database: any SubmissionDatabase
        let key: StoredKey
        let session: String
        let frame: AdminFrame
        let formID: String
        let form: CompiledForm?
        /// Milliseconds since 1970.
        let now: UInt64

        var texts: AdminTexts { frame.texts }

        /// Whether the key may do `scope`.
        func may(_ scope: APIKey.Scope) -> Bool { key.scopes.contains(scope.rawValue) }
    }

    /// A refusal a page's work throws: its status and the words the reader gets.
    struct Refusal: Error {
        let status: HTTPStatus
        let title: String
        let message: String
    }

    /// Runs `work` for a signed-in operator whose key has `read` and `scope` (and on a `post`, whose
    /// form carries the session's token), off the server's threads; a reader without a session is sent
    /// to sign in, and comes back here after.
    func page(
        _ request: Request, _ scope: APIKey.Scope = .read, post: Bool = false,
        _ work: @escaping @Sendable (Context) throws -> Response
    ) async -> Response {
        let texts = Self.texts(request)
        return await Blocking.run { [self] in
            do {
                guard let database else {
                    throw Refusal(status: .notFound, title: texts.noStoreTitle, message: texts.noStore)
                }
                let now = Date().milliseconds
                guard let (session, key) = try access.session(request, in: database, now: now) else {
                    return toSignIn(request)
                }
                let formID = request.parameters["id"] ?? ""
                let form = forms[formID]
                if request.parameters["id"] != nil, form == nil || !(key.forms.isEmpty || key.forms.contains(formID)) {
                    throw Refusal(status: .notFound, title: texts.notFoundTitle, message: texts.notFound)
                }
                for needed in Set([APIKey.Scope.read, scope]) where !key.scopes.contains(needed.rawValue) {
                    throw Refusal(
                        status: .forbidden, title: texts.deniedTitle,
                        message: texts.lacksScope.filling(["name": key.name, "scope": needed.rawValue]))
                }
                if post {
                    let fields = QueryParameters.parse(urlencoded: request.body) ?? QueryParameters()
                    guard access.verify(fields["_csrf"], session: session) else {
                        throw Refusal(status: .forbidden, title: texts.deniedTitle, message: texts.staleAction)
                    }
                }
                let frame = AdminFrame(texts: texts, keyName: key.name, csrf: access.token(session: session))
                return try work(
                    Context(
                        request: request, database: database, key: key, session: session, frame: frame,
                        formID: formID, form: form, now: now))
            } catch let refusal as Refusal {
                return Self.message(refusal.status, refusal.title, refusal.message, texts: texts)
            } catch {
                logger.error("the store did not answer the operator's view", metadata: ["error": "\(error)"])
                var response = Self.message(
                    .serviceUnavailable, texts.unavailableTitle, texts.unavailable, texts: texts)
                response.headers["Retry-After"] = "5"
                return response
            }
        }
    }

    /// The sign-in page's address, coming back to `request`'s after; a reader whose session ended is
    /// told so there, and its cookie removed.
    private func toSignIn(_ request: Request) -> Response {
        // A post's address is not where to come back to: its page is.
        let back =
            request.method == .get
            ? "/" + request.pathSegments.map(FormRoutes.segment).joined(separator: "/")
                + (request.query.isEmpty ? "" : "?" + request.query.urlencoded) : "/admin"
        let ended = request.cookie(named: access.cookieName) != nil
        var query = QueryParameters([("next", back)])
        if ended { query = QueryParameters(query.pairs + [("ended", "1")]) }
        var response = Response.redirect(to: "/admin/sign-in?" + query.urlencoded)
        response.headers["Cache-Control"] = "no-store"
        if ended { response.headers.add("Set-Cookie", access.removal(access.cookieName)) }
        return response
    }

    /// The texts for `request`'s reader, by its `Accept-Language`.
    static func texts(_ request: Request) -> AdminTexts {
        AdminTexts(locale: MessageLocale.choose(formLocale: "en", acceptLanguage: request.headers["Accept-Language"]))
    }

    /// A page of the view: HTML, never cached, never framed.
    static func html(_ status: HTTPStatus, _ bytes: [UInt8]) -> Response {
        var response = Answers.html(status, bytes)
        response.headers["X-Frame-Options"] = "DENY"
        return response
    }

    /// A page saying `message` under `title`, with a link back to the forms.
    static func message(_ status: HTTPStatus, _ title: String, _ message: String, texts: AdminTexts) -> Response {
        let page = MessagePage(
            title: title, message: message, language: texts.language, link: ("/admin", texts.allForms))
        return html(status, page.render())
    }
}
