/// Answers a request on a server thread, from a view of it valid for the call. It must not block:
/// work that waits answers `Response.later`, with the request `owned()`.
public typealias Handler = @Sendable (borrowing RequestView) -> Response

/// Answers a request from a Swift task; the connection is suspended meanwhile and holds no thread.
public typealias AsyncHandler = @Sendable (Request) async -> Response

/// Collects routes; `freeze()` turns them into the immutable `Router` a server runs.
///
/// ```swift
/// var routes = RouterBuilder()
/// routes.get("/healthz") { _ in .text(.ok, "ok") }
/// routes.get("/forms/{id}") { request in render(request.parameters["id"]!) }
/// let server = Server(configuration: .init(port: 0), router: routes.freeze())
/// ```
public struct RouterBuilder: Sendable {
    private var routes: [Route] = []
    /// Paths of routes for values (`on(_:_:values:missing:_:)`), each with what it captures.
    private var literals: [Router.Literal] = []
    private var files: [(key: String, value: StaticFiles.Entry)] = []

    /// An empty set of routes.
    public init() {}

    /// Adds a route for `method` and `pattern`; `{name}` segments capture into `RequestView.parameters`.
    ///
    /// `exists` says whether captured parameters name something that is there (`/forms/{id}`: a form).
    /// Routing then tells a missing resource from a wrong method: a path whose every matching route
    /// says no is a 404 whatever its method, where it would otherwise be a 405 for matching another
    /// method's pattern (RFC 9110 §15.5.6: a 405 says the resource is there, and `Allow` lists only
    /// what it takes). A request whose own method's route matches still runs it when no route of
    /// another method has the path, so that handler can word the 404; when the request has a body,
    /// the handler runs as soon as the headers are in, without the body, so that nothing is read for
    /// nothing (an async handler is not run: the server's own 404 answers).
    public mutating func on(
        _ method: HTTPMethod, _ pattern: String, exists: Existence? = nil, _ handler: @escaping Handler
    ) {
        add(method, pattern, exists, handler)
    }

    /// Adds a route whose handler runs as a Swift task while the connection waits suspended: a
    /// `Handler` that answers `Response.later` with the request owned.
    public mutating func on(
        _ method: HTTPMethod, _ pattern: String, exists: Existence? = nil, async handler: @escaping AsyncHandler
    ) {
        add(method, pattern, exists) { view in
            let request = view.owned()
            return .later { await handler(request) }
        }
    }

    /// Adds a route whose one `{parameter}` names one of `values`' keys, and whose handler gets that
    /// key's value with the request. A path naming no key is no resource: `missing` words its 404, or
    /// the server does. Each path of a key made of plain segments (`/forms/event`, not `/forms/a.b`:
    /// `RouterBuilder.isPlainSegment`) is also found straight from the request target, without parsing
    /// or matching it.
    public mutating func on<Value: Sendable>(
        _ method: HTTPMethod, _ pattern: String, values: [String: Value], missing: Handler? = nil,
        _ handler: @escaping @Sendable (borrowing RequestView, Value) -> Response
    ) {
        let parsed = RoutePattern(pattern)
        let names = parsed.parameterNames
        precondition(names.count == 1, "a route for values has one parameter: \(pattern)")
        let parameter = names[0]
        add(method, pattern, { values[$0[parameter] ?? ""] != nil }, answersMissing: missing != nil) { request in
            guard let value = values[request.parameters[parameter] ?? ""] else {
                // Without `missing`, the router answers a path naming no key itself, never calling this.
                return missing?(request) ?? .error(.notFound, "no resource at \(request.path)")
            }
            return handler(request, value)
        }
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            literals.append((method, parsed.segments(filledWith: name), [parameter: name], { handler($0, value) }))
        }
    }

    /// Adds a `GET` route; `HEAD` is answered by it too.
    public mutating func get(_ pattern: String, exists: Existence? = nil, _ handler: @escaping Handler) {
        on(.get, pattern, exists: exists, handler)
    }

    /// Adds a `GET` route for `values` (`on(_:_:values:missing:_:)`); `HEAD` is answered by it too.
    public mutating func get<Value: Sendable>(
        _ pattern: String, values: [String: Value], missing: Handler? = nil,
        _ handler: @escaping @Sendable (borrowing RequestView, Value) -> Response
    ) {
        on(.get, pattern, values: values, missing: missing, handler)
    }

    /// Adds a `POST` route.
    public mutating func post(_ pattern: String, exists: Existence? = nil, _ handler: @escaping Handler) {
        on(.post, pattern, exists: exists, handler)
    }

    /// Adds a `POST` route for `values` (`on(_:_:values:missing:_:)`).
    public mutating func post<Value: Sendable>(
        _ pattern: String, values: [String: Value], missing: Handler? = nil,
        _ handler: @escaping @Sendable (borrowing RequestView, Value) -> Response
    ) {
        on(.post, pattern, values: values, missing: missing, handler)
    }

    /// Serves `files` under `prefix` (`"/static"`): `GET prefix/{path...}`, where any path is decoded,
    /// matched and answered by `StaticFiles.respond`. The plain paths most requests use are also found
    /// straight from the request target, without parsing or routing it (`Router.exact(for:rawTarget:)`).
    public mutating func files(_ prefix: String, _ files: StaticFiles) {
        // A path naming no file is the server's own 404 (`ServerConfiguration.errorResponse`), as any
        // other address that is not there: the handler has nothing better to say of it.
        add(
            .get, prefix + "/{path...}", { files.has($0["path"] ?? "") }, answersMissing: false
        ) { request in files.respond(to: request, path: request.parameters["path"] ?? "") }
        self.files += files.entries(byTargetUnder: prefix).sorted { $0.key < $1.key }
    }

    /// The routes, frozen: no route can be added to a running server.
    public func freeze() -> Router { Router(routes: routes, literals: literals, files: files) }

    /// Whether `text` may be a literal route's segment found straight from the raw target: URL
    /// unreserved bytes other than `.` (RFC 3986 §2.3), which no request escapes and no pattern reads
    /// as a parameter or a suffix.
    public static func isPlainSegment(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "~"):
                    true
                default: false
                }
            }
    }

    private mutating func add(
        _ method: HTTPMethod, _ pattern: String, _ exists: Existence?, answersMissing: Bool = true,
        _ handler: @escaping Handler
    ) {
        let parsed = RoutePattern(pattern)
        precondition(
            !routes.contains { $0.method == method && $0.pattern == parsed },
            "route \(method) \(pattern) is defined twice")
        routes.append(
            Route(
                method: method, pattern: parsed, exists: exists, answersMissing: answersMissing, handler: handler))
    }
}

/// Whether a route's captured parameters name something that exists (`RouterBuilder.on`'s `exists`).
public typealias Existence = @Sendable (RouteParameters) -> Bool

/// One method, one pattern, one handler.
///
/// A class: routing visits several routes per request, and visiting a reference costs one retain
/// where copying the struct's pattern, strings and closure would cost one each.
final class Route: Sendable {
    let method: HTTPMethod
    let pattern: RoutePattern
    let handler: Handler
    /// Whether a match names something that exists; nil: every match does.
    let exists: Existence?
    /// Whether the handler words the 404 of a match that names nothing; else the server's own answers.
    let answersMissing: Bool
    /// The first segment when it is a literal: a path with another first segment is skipped at once.
    let firstLiteral: String?
    /// How many segments a path needs (at least, when the pattern is open-ended): a path of another
    /// length is skipped without matching.
    let segmentCount: Int
    let isOpenEnded: Bool

    init(
        method: HTTPMethod, pattern: RoutePattern, exists: Existence? = nil, answersMissing: Bool = true,
        handler: @escaping Handler
    ) {
        self.method = method
        self.pattern = pattern
        self.exists = exists
        self.answersMissing = answersMissing
        self.handler = handler
        if case .literal(let text) = pattern.segments.first { firstLiteral = text } else { firstLiteral = nil }
        segmentCount = pattern.segments.count
        isOpenEnded = pattern.isOpenEnded
    }

    /// The parameters `path` captures when it matches and names something that exists; `missing` tells
    /// a match that names nothing.
    func match(_ path: [String]) -> (parameters: RouteParameters, missing: Bool)? {
        guard mayMatch(path), let parameters = pattern.match(path) else { return nil }
        return (parameters, !(exists?(parameters) ?? true))
    }

    /// Whether `path` has the length and the first segment to match, which is decided without matching.
    func mayMatch(_ path: [String]) -> Bool {
        guard path.count == segmentCount || (isOpenEnded && path.count >= segmentCount) else { return false }
        guard let firstLiteral else { return true }
        return path.first == firstLiteral
    }
}

/// A route found by its exact raw target (`/forms/event`): the request needs no target parsed and
/// no route matched, since the target and the parameters are known in advance.
final class LiteralRoute: Sendable {
    let handler: Handler
    let target: RequestTarget
    let parameters: RouteParameters

    init(handler: @escaping Handler, segments: [String], parameters: RouteParameters = RouteParameters()) {
        self.handler = handler
        self.parameters = parameters
        target = RequestTarget(segments: segments, query: QueryParameters())
    }
}

/// What a plain request target names exactly (`Router.exact(for:rawTarget:)`).
///
/// Unretained: the router holds every file and route for its life, which is the server's, and each
/// worker thread retaining and releasing the same objects per request would pass their counts' cache
/// lines from core to core.
enum ExactTarget: Sendable {
    case file(Unmanaged<StaticFiles.Entry>)
    case route(Unmanaged<LiteralRoute>)
}

/// The immutable routing table of a running server.
///
/// A class: the server consults it on every request, and a reference is passed without the retain
/// and release per stored table that a struct's copy would cost.
public final class Router: Sendable {
    /// Most specific first, so the first match is the one to run.
    private let routes: [Route]
    /// What plain targets name exactly, by method, found by one lookup before any parsing: GET's
    /// table holds the static files (`RouterBuilder.files`), then the GET routes of plain literal
    /// segments (`LiteralRoute`); another method's, its own such routes. Those routes are in `routes`
    /// too: a target written another way (a query, an escape, a trailing `/`) is routed there.
    private let exactTargets: [(method: HTTPMethod, table: TargetTable<ExactTarget>)]
    /// `OPTIONS *`: what the server takes anywhere (RFC 9110 §9.3.7), answered as a literal route.
    private let serverOptions: LiteralRoute
    /// What `exactTargets` names unretained, held here.
    private let exactFiles: [StaticFiles.Entry]
    private let exactRoutes: [LiteralRoute]

    init(
        routes: [Route], literals: [Literal] = [], files: [(key: String, value: StaticFiles.Entry)] = []
    ) {
        self.routes = routes.sorted { RoutePattern.moreSpecific($0.pattern, $1.pattern) }
        // A file and a route at the same target: the file wins, as if files were looked up first.
        var exact: [HTTPMethod: [(key: String, value: ExactTarget)]] = [:]
        if !files.isEmpty { exact[.get] = files.map { (key: $0.key, value: .file(.passUnretained($0.value))) } }
        var exactRoutes: [LiteralRoute] = []
        func addExact(
            _ method: HTTPMethod, _ segments: [String], _ parameters: RouteParameters, _ handler: @escaping Handler
        ) {
            guard !segments.isEmpty, segments.allSatisfy(RouterBuilder.isPlainSegment) else { return }
            let literal = LiteralRoute(handler: handler, segments: segments, parameters: parameters)
            exactRoutes.append(literal)
            exact[method, default: []].append(("/" + segments.joined(separator: "/"), .route(.passUnretained(literal))))
        }
        for route in routes {
            let segments = route.pattern.segments.compactMap { segment -> String? in
                guard case .literal(let text) = segment else { return nil }
                return text
            }
            if segments.count == route.pattern.segments.count { addExact(route.method, segments, [:], route.handler) }
        }
        for literal in literals { addExact(literal.method, literal.segments, literal.parameters, literal.handler) }
        exactTargets = exact.map { (method: $0.key, table: TargetTable($0.value)) }
        exactFiles = files.map(\.value)
        self.exactRoutes = exactRoutes
        var methods: [HTTPMethod] = []
        for route in routes where !methods.contains(route.method) { methods.append(route.method) }
        let answer = Self.options(Self.completed(methods))
        serverOptions = LiteralRoute(handler: { _ in answer }, segments: [])
    }

    /// A path of a route for values (`RouterBuilder.on(_:_:values:missing:_:)`), with what it captures.
    typealias Literal = (method: HTTPMethod, segments: [String], parameters: RouteParameters, handler: Handler)

    /// `methods` with HEAD where GET is (RFC 9110 §9.3.2), and OPTIONS, which every resource answers.
    private static func completed(_ methods: [HTTPMethod]) -> [HTTPMethod] {
        var methods = methods
        if methods.contains(.get), !methods.contains(.head) { methods.append(.head) }
        if !methods.contains(.options) { methods.append(.options) }
        return methods
    }

    /// The answer to an OPTIONS request: no content, and the methods in `Allow`.
    static func options(_ allow: [HTTPMethod]) -> Response {
        Response(status: .ok, headers: ["Allow": allow.map(\.rawValue).joined(separator: ", ")])
    }

    /// The static file or literal route that `rawTarget` names exactly for `method` (HEAD finds GET's),
    /// found by one table lookup. Nil for anything else — a query, an escape, a path of neither —
    /// which then takes the general path to the same answer or to its 404. What it finds is unretained
    /// (`ExactTarget`): it is valid while the router is.
    func exact(for method: HTTPMethod, rawTarget: String) -> ExactTarget? {
        var rawTarget = rawTarget
        return rawTarget.withUTF8 { exact(for: method, rawTarget: $0)?.target }
    }

    /// `exact(for:rawTarget:)` for the target's bytes, with the target as a string (the key it was
    /// found by): a request's target is looked up before any string is made of it.
    func exact(
        for method: HTTPMethod, rawTarget: UnsafeBufferPointer<UInt8>
    ) -> (target: ExactTarget, text: String)? {
        let lookup = method == .head ? HTTPMethod.get : method
        // By index: iterating would copy each (method, table) pair, a retain and a release apiece.
        for index in exactTargets.indices where exactTargets[index].method == lookup {
            if let (text, found) = exactTargets[index].table.entry(for: rawTarget) { return (found, text) }
            break
        }
        // The one target that is not a path: no table holds it, and no route parses it.
        if method == .options, rawTarget.count == 1, rawTarget[0] == UInt8(ascii: "*") {
            return (.route(.passUnretained(serverOptions)), "*")
        }
        return nil
    }

    /// What routing decided for one request.
    enum Resolution {
        case found(Handler, parameters: RouteParameters)
        /// A route of this method matches, but names nothing that exists, and no route of another method
        /// has the path: its handler answers, with its own 404.
        case missing(Handler, parameters: RouteParameters)
        /// The path exists but not for this method; `allow` lists the methods that do (RFC 9110 §15.5.6).
        case methodNotAllowed(allow: [HTTPMethod])
        /// An OPTIONS request on a path that exists and has no OPTIONS route: `allow` lists what it takes.
        case options(allow: [HTTPMethod])
        case notFound
    }

    func resolve(_ method: HTTPMethod, _ path: [String]) -> Resolution {
        // HEAD is GET without the body (RFC 9110 §9.3.2); libmicrohttpd leaves the body out.
        let lookup = method == .head ? HTTPMethod.get : method
        // Routes of other methods are passed over unmatched: the first route of this method that
        // matches wins, and most requests find one. A match that names nothing which exists is kept
        // aside: it answers (its handler's 404) only if no route of another method has the path.
        var missing: (handler: Handler, parameters: RouteParameters)?
        for route in routes where route.method == lookup {
            guard let match = route.match(path) else { continue }
            if !match.missing { return .found(route.handler, parameters: match.parameters) }
            if missing == nil, route.answersMissing { missing = (route.handler, match.parameters) }
        }
        // None: the methods the path has, for a 405's `Allow`, or a 404.
        var allowed: [HTTPMethod] = []
        for route in routes where !allowed.contains(route.method) {
            if let match = route.match(path), !match.missing { allowed.append(route.method) }
        }
        guard !allowed.isEmpty else {
            if let missing { return .missing(missing.handler, parameters: missing.parameters) }
            return .notFound
        }
        // OPTIONS asks what a resource takes (RFC 9110 §9.3.7): that is the answer, not a refusal. A 405's
        // `Allow` says the same (§10.2.1), OPTIONS included.
        if method == .options { return .options(allow: Self.completed(allowed)) }
        return .methodNotAllowed(allow: Self.completed(allowed))
    }
}
