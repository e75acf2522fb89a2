import HTTPTestClient
import Testing

@testable import HTTPServer

@Suite struct RouterTests {
    private func router() -> Router {
        var routes = RouterBuilder()
        standardRoutes(&routes)
        routes.post("/items/{id}") { _ in .text(.ok, "posted") }
        routes.get("/items/new") { _ in .text(.ok, "new") }
        return routes.freeze()
    }

    /// The methods `OPTIONS *` lists in `Allow`, as `router` answers it; nil when it is not answered.
    private func serverAllow(_ router: Router) -> Set<String>? {
        guard case .route(let server)? = router.exact(for: .options, rawTarget: "*") else { return nil }
        let handler = server.takeUnretainedValue().handler
        let allow = handler(RequestView(Request(method: .options, pathSegments: []))).headers["Allow"] ?? ""
        return Set(allow.split(separator: ", ").map(String.init))
    }

    private func parameters(_ method: HTTPMethod, _ path: [String]) -> RouteParameters? {
        if case .found(_, let parameters) = router().resolve(method, path) { return parameters }
        return nil
    }

    @Test func parameterSegmentCapturesItsValue() {
        #expect(parameters(.get, ["items", "42"]) == ["id": "42"])
    }

    @Test func literalSegmentWinsOverParameter() {
        guard case .found(let handler, let parameters) = router().resolve(.get, ["items", "new"]) else {
            Issue.record("no route")
            return
        }
        #expect(parameters.isEmpty)
        #expect(
            handler(RequestView(Request(method: .get, pathSegments: ["items", "new"]))).body.bytes == Array("new".utf8))
    }

    @Test func affixedParameterCapturesBetweenPrefixAndSuffix() {
        #expect(parameters(.get, ["files", "event.json"]) == ["name": "event"])
    }

    /// Affixes are compared as bytes: a non-ASCII value is captured whole, and a segment that is only
    /// the affixes (nothing between them) does not match.
    @Test func affixedParameterWithNonASCIIValue() {
        #expect(parameters(.get, ["files", "événement.json"]) == ["name": "événement"])
        #expect(parameters(.get, ["files", ".json"]) == ["rest": ".json"])
        #expect(parameters(.get, ["items", "日本"]) == ["id": "日本"])
    }

    @Test func restParameterCapturesTheRemainingSegments() {
        #expect(parameters(.get, ["files", "css", "site.css"]) == ["rest": "css/site.css"])
        #expect(parameters(.get, ["files"]) == nil)
    }

    @Test func headIsAnsweredByTheGetRoute() {
        #expect(parameters(.head, ["items", "7"]) == ["id": "7"])
    }

    @Test func wrongMethodListsTheAllowedOnes() {
        guard case .methodNotAllowed(let allow) = router().resolve(.delete, ["items", "7"]) else {
            Issue.record("expected 405")
            return
        }
        #expect(Set(allow) == [.get, .post, .head, .options])
    }

    @Test func unknownPathIsNotFound() {
        guard case .notFound = router().resolve(.get, ["nowhere"]) else {
            Issue.record("expected 404")
            return
        }
        guard case .notFound = router().resolve(.get, ["items", "1", "extra"]) else {
            Issue.record("expected 404 for a longer path")
            return
        }
    }

    /// OPTIONS asks what a resource takes (RFC 9110 §9.3.7): a path that exists answers with its methods,
    /// OPTIONS among them; one that does not is a 404; `*` names the server, which takes every method.
    @Test func optionsListsWhatAPathTakes() {
        guard case .options(let allow) = router().resolve(.options, ["items", "7"]) else {
            Issue.record("expected the methods of /items/7")
            return
        }
        #expect(Set(allow) == [.get, .post, .head, .options])
        guard case .notFound = router().resolve(.options, ["nowhere"]) else {
            Issue.record("expected 404")
            return
        }
        // Held: what `exact` finds is the router's, unretained.
        let router = router()
        #expect(serverAllow(router) == ["GET", "HEAD", "POST", "OPTIONS"])
        #expect(router.exact(for: .get, rawTarget: "*") == nil)
    }

    /// `OPTIONS *` is the server's own answer, also where literal OPTIONS routes have a table of
    /// their own, in which `*` is not.
    @Test func optionsStarIsAnsweredBesideLiteralOptionsRoutes() {
        var routes = RouterBuilder()
        routes.get("/items") { _ in .text(.ok, "items") }
        routes.on(.options, "/items") { _ in .text(.ok, "options of items") }
        let router = routes.freeze()
        #expect(serverAllow(router) == ["GET", "HEAD", "OPTIONS"])
        guard case .route(let items)? = router.exact(for: .options, rawTarget: "/items") else {
            Issue.record("the OPTIONS route of /items must be found by its target")
            return
        }
        #expect(items.takeUnretainedValue().target.segments == ["items"])
    }

    @Test func unknownMethodOnAKnownPathIsMethodNotAllowed() {
        guard case .methodNotAllowed = router().resolve(HTTPMethod(rawValue: "BREW"), ["hello"]) else {
            Issue.record("expected 405")
            return
        }
    }

    /// Routes that say which of their matches exist (`exists:`) tell a missing resource from a wrong
    /// method: a path naming nothing is a 404 for every method, and `Allow` lists only the methods whose
    /// routes name something that exists.
    @Test func aPathNamingNothingIsNotFoundWhateverTheMethod() {
        var routes = RouterBuilder()
        let event: Existence = { $0["id"] == "event" }
        routes.get("/forms/{id}.json", exists: event) { _ in .text(.ok, "descriptor") }
        routes.get("/forms/{id}", exists: event) { _ in .text(.ok, "page") }
        routes.post("/forms/{id}", exists: event) { _ in .text(.ok, "posted") }
        routes.post("/forms/{id}/explain", exists: { _ in false }) { _ in .text(.notFound, "explanations are off") }
        let router = routes.freeze()
        guard case .notFound = router.resolve(.put, ["forms", "nosuch"]) else {
            Issue.record("a wrong method on a missing form must be a 404")
            return
        }
        // The request's own method still runs its route, whose handler answers the 404 in its own words.
        guard case .missing(_, let missing) = router.resolve(.get, ["forms", "nosuch"]) else {
            Issue.record("GET of a missing form must reach the page route")
            return
        }
        #expect(missing == ["id": "nosuch"])
        // The descriptor takes GET only: `POST /forms/{id}` matching it with id `event.json` does not count.
        for method in [HTTPMethod.post, .put] {
            guard case .methodNotAllowed(let allow) = router.resolve(method, ["forms", "event.json"]) else {
                Issue.record("\(method) of the descriptor must be a 405")
                continue
            }
            #expect(allow == [.get, .head, .options])
        }
        guard case .methodNotAllowed(let allow) = router.resolve(.delete, ["forms", "event"]) else {
            Issue.record("DELETE of an existing form must be a 405")
            return
        }
        #expect(Set(allow) == [.get, .post, .head, .options])
        // A route that exists for no match (a feature switched off) offers no method, but its own
        // method still reaches its handler.
        guard case .notFound = router.resolve(.get, ["forms", "event", "explain"]) else {
            Issue.record("GET of a switched-off route must be a 404")
            return
        }
        guard case .missing(_, let explain) = router.resolve(.post, ["forms", "event", "explain"]) else {
            Issue.record("POST of a switched-off route must reach its handler")
            return
        }
        #expect(explain == ["id": "event"])
        #expect(parameters(in: router, .get, ["forms", "event.json"]) == ["id": "event"])
        #expect(parameters(in: router, .post, ["forms", "event"]) == ["id": "event"])
    }

    private func parameters(in router: Router, _ method: HTTPMethod, _ path: [String]) -> RouteParameters? {
        if case .found(_, let parameters) = router.resolve(method, path) { return parameters }
        return nil
    }
}
