import FormEngine
import FormHTML
import HTTPServer

/// The shapes of the form routes' answers, with the headers every page carries.
enum Answers {
    /// The policy of every page: scripts, styles and form posts only from this site, no framing
    /// (clickjacking), no `<base>` rewriting. The pages need nothing more.
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
        + "frame-ancestors 'none'; base-uri 'none'; object-src 'none'"

    /// An HTML page. Pages carry a CSRF token, so they are not stored by caches (`no-store`) unless the
    /// caller says otherwise.
    static func html(_ status: HTTPStatus, _ bytes: [UInt8], cache: String = "no-store") -> Response {
        html(status, ResponseBody(bytes: bytes), cache: cache)
    }

    /// An HTML page whose body is already built.
    static func html(_ status: HTTPStatus, _ body: ResponseBody, cache: String = "no-store") -> Response {
        var headers = pageHeaders
        if cache != "no-store" { headers["Cache-Control"] = cache }
        return Response(status: status, headers: headers, body: body)
    }

    /// Built once: a page's headers are the same on every request.
    static let pageHeaders: HTTPHeaders = [
        "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store",
        "Content-Security-Policy": contentSecurityPolicy, "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin",
    ]

    /// A JSON answer.
    static func json(_ status: HTTPStatus, _ value: JSONValue) -> Response {
        json(status, value.bytes)
    }

    /// A JSON answer already written as bytes.
    static func json(_ status: HTTPStatus, _ bytes: [UInt8]) -> Response {
        Response(status: status, headers: jsonHeaders, body: ResponseBody(bytes: bytes))
    }

    /// Built once, like `pageHeaders`.
    private static let jsonHeaders: HTTPHeaders = [
        "Content-Type": "application/json", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
    ]

    /// `serverError` for a server whose body limit is `bodyLimit` bytes, which its 413 page names.
    static func serverErrors(bodyLimit: Int) -> @Sendable (HTTPStatus, String, HTTPHeaders) -> Response {
        { status, message, headers in serverError(status, message, headers, bodyLimit: bodyLimit) }
    }

    /// An error the HTTP server answers before any route runs (`ServerConfiguration.errorResponse`),
    /// in JSON for an API client as the form routes answer theirs: a body over the limit is as much the
    /// client's concern as one that is malformed. A browser gets a page in its language: for a missing
    /// address, for a post over `bodyLimit` (files too large to send), and for any other refusal, with
    /// the server's reason beneath; any other client, plain text.
    static func serverError(
        _ status: HTTPStatus, _ message: String, _ headers: HTTPHeaders, bodyLimit: Int? = nil
    ) -> Response {
        let request = Request(method: .get, pathSegments: [], headers: headers)
        guard Negotiation.wantsJSON(request, contentType: request.contentType) else {
            if Negotiation.takesHTML(headers) {
                let texts = PageTexts(locale: FormRoutes.locale(headers["Accept-Language"], formLocale: "en"))
                if status == .notFound { return html(.notFound, MessagePage.notFound(texts: texts).render()) }
                if status == .contentTooLarge, let bodyLimit {
                    let page = MessagePage.tooLarge(texts: texts, size: Problem.sizeText(bodyLimit))
                    return html(.contentTooLarge, page.render())
                }
                // The caller adds a 405's `Allow` to whichever answer this is.
                if status.code < 500 { return refusalPage(status, message, texts: texts) }
            }
            // Which of three answers a client gets depends on its Accept: none of them may be stored
            // and replayed to another client.
            var plain = Response.error(status, message)
            plain.headers["Cache-Control"] = "no-store"
            return plain
        }
        let code =
            switch status {
            case .contentTooLarge, .notImplemented: "body"
            case .notFound: "notFound"
            case .methodNotAllowed: "methodNotAllowed"
            case .requestHeaderFieldsTooLarge: "headerTooLarge"
            default: "badRequest"
            }
        return problem(status, message, code: code, json: true)
    }

    /// A request refused in the client's terms: JSON with `code` for an API client, a page in the
    /// reader's language (`texts`) for a browser, plain text for anything else.
    static func refusal(
        _ status: HTTPStatus, _ message: String, code: String, json: Bool, request: Request, texts: PageTexts
    ) -> Response {
        guard !json, Negotiation.takesHTML(request.headers) else {
            return problem(status, message, code: code, json: json)
        }
        return refusalPage(status, message, texts: texts)
    }

    /// The page a browser reads for a request refused with `status` for `reason`.
    private static func refusalPage(_ status: HTTPStatus, _ reason: String, texts: PageTexts) -> Response {
        html(status, MessagePage.refused(texts: texts, reason: reason).render())
    }

    static func problem(_ status: HTTPStatus, _ message: String, code: String, json: Bool) -> Response {
        guard json else { return .error(status, message) }
        let error = JSONValue.object([("tag", .string("")), ("message", .string(message)), ("code", .string(code))])
        return Self.json(status, .object([("errors", .array([error]))]))
    }
}
