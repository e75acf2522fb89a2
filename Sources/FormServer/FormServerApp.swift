import FormEngine
import FormHTML
import FormModel
import FormStore
import Foundation
import HTTPServer
import Logging

/// The Formwright application: the routes of a form site on one `Server`.
///
/// ```swift
/// let app = try FormServerApp(configuration: FormServerConfiguration())
/// try app.start()
/// // ... until SIGTERM
/// app.shutdown()
/// ```
public final class FormServerApp: Sendable {
    /// The HTTP server; its port is known after `start()`.
    public let server: Server
    /// The compiled forms served, as loaded at start (`reloadOptions` serves newer ones).
    public let catalog: FormCatalog
    private let logger: Logger
    private let forms: FormRoutes
    /// Sends the forms' delivery jobs; nil when nothing is delivered.
    private let deliveries: DeliveryWorker?

    /// Loads what the routes serve and builds them; fails with a message naming the folder at fault.
    public init(
        configuration: FormServerConfiguration, hooks: FormHooks = FormHooks(),
        logger: Logger = Logger(label: "formwright")
    ) throws {
        self.logger = logger
        try Self.checkFolder(configuration.formsFolder, role: "forms")
        try Self.checkFolder(configuration.publicFolder, role: "public")
        // The same checks as `formwright check`: an invalid form stops the server before it listens.
        catalog = try Self.servedCatalog(folder: configuration.formsFolder, hooks: hooks)
        try Self.checkHooks(hooks, catalog: catalog)
        if configuration.secret == nil {
            logger.notice("no FORMWRIGHT_SECRET: CSRF tokens use a random secret and end with this process")
        }
        var store = try Self.submissionKeeper(configuration, catalog: catalog, hooks: hooks, logger: logger)
        deliveries = try Self.deliveryWorker(
            configuration, catalog: catalog, hooks: hooks, keeper: &store, logger: logger)
        var configuration = configuration
        configuration.server.maxBodySize = Self.bodyLimit(configuration, catalog: catalog, logger: logger)
        let uploadLimit = Self.uploadLimit(configuration, catalog: catalog, logger: logger)
        let csrf =
            configuration.secret.map { CSRFGuard(secret: $0, secureCookie: configuration.secureCookies) }
            ?? .random(secureCookie: configuration.secureCookies)
        forms = try FormRoutes(
            catalog: catalog, hooks: hooks, csrf: csrf,
            explain: configuration.explain, maximumFileSize: uploadLimit, checkingBudget: configuration.checkingBudget,
            store: store, logger: logger)
        if configuration.secret == nil, !forms.editableForms.isEmpty {
            logger.warning(
                "no FORMWRIGHT_SECRET: the edit links of these forms stop working when this process ends",
                metadata: ["forms": "\(forms.editableForms.sorted().joined(separator: ", "))"])
        }
        logger.info("forms loaded", metadata: ["forms": "\(catalog.ids.joined(separator: ", "))"])
        let files = try StaticFiles(folder: configuration.publicFolder) { path, reason in
            logger.warning("static file left out", metadata: ["file": "\(path)", "reason": "\(reason)"])
        }
        var serverConfiguration = configuration.server
        serverConfiguration.errorResponse = Answers.serverErrors(bodyLimit: serverConfiguration.maxBodySize)
        if configuration.accessLog {
            let accessLog = AccessLog()
            serverConfiguration.accessLog = { accessLog.write($0) }
        }
        server = Server(
            configuration: serverConfiguration,
            router: try Self.routes(
                files: files, forms: forms, catalog: catalog,
                access: AdminAccess(
                    csrf: csrf, secureCookies: configuration.secureCookies,
                    lifetime: configuration.adminSessionLifetime), logger: logger),
            logger: logger)
    }

    /// The body limit the server enforces: the configured one, raised to fit the largest post of a form
    /// with upload rows when `bodyLimitFitsUploads`; when it is not, the configured one, with a warning
    /// naming the forms whose files it cannot carry (a post near their limits would be a 413).
    private static func bodyLimit(
        _ configuration: FormServerConfiguration, catalog: FormCatalog, logger: Logger
    ) -> Int {
        let body = configuration.server.maxBodySize
        // A multivalued section's upload row counts once: how many rows a reader adds is not known.
        let needs = catalog.ids.compactMap { id -> (id: String, bytes: Int)? in
            let uploads = uploadRows(in: catalog, id)
            guard uploads > 0 else { return nil }
            let files = uploads.multipliedReportingOverflow(by: configuration.maximumFileSize)
            let post = files.partialValue.addingReportingOverflow(FormServerConfiguration.uploadReserve)
            return (id, files.overflow || post.overflow ? Int.max : post.partialValue)
        }
        let short = needs.filter { $0.bytes > body }
        guard let largest = short.map(\.bytes).max() else { return body }
        let forms = short.map(\.id).joined(separator: ", ")
        guard configuration.bodyLimitFitsUploads else {
            logger.warning(
                "the largest body (--max-body) cannot carry every file of these forms at the largest file's size (--max-file): such posts get 413",
                metadata: ["max-body": "\(body)", "max-file": "\(configuration.maximumFileSize)", "forms": "\(forms)"])
            return body
        }
        let message: Logger.Message =
            "the largest body is raised to carry every file of these forms at the largest file's size (--max-file), and 1 MiB more"
        // A body is read into memory whole: past a size no default should reach, the operator should know.
        let level: Logger.Level = largest > FormServerConfiguration.largeBody ? .warning : .info
        logger.log(level: level, message, metadata: ["max-body": "\(largest)", "forms": "\(forms)"])
        return largest
    }

    /// How many upload rows form `id` of `catalog` has.
    private static func uploadRows(in catalog: FormCatalog, _ id: String) -> Int {
        catalog.forms[id]?.form.sections.reduce(0) { count, section in
            count + section.rows.count(where: { $0.type.valueKind == .file })
        } ?? 0
    }

    /// The largest file an upload row takes: `--max-file`, or less when the body limit could not carry
    /// a file that size, as a file travels in a body with the multipart framing and the form's other
    /// fields: what `--max-body` leaves after `formRoom` (an eighth of a small body). Pages name this
    /// limit, and a post is judged by it: a page must not promise a file its post cannot bring.
    private static func uploadLimit(
        _ configuration: FormServerConfiguration, catalog: FormCatalog, logger: Logger
    ) -> Int {
        let (file, body) = (configuration.maximumFileSize, configuration.server.maxBodySize)
        let room = body - min(FormServerConfiguration.formRoom, body / 8)
        // Without an upload row there is no file for the limit to leave out: nothing to warn of.
        guard file > room, catalog.ids.contains(where: { uploadRows(in: catalog, $0) > 0 }) else { return file }
        logger.warning(
            "the largest file (--max-file) does not fit in the largest body (--max-body) with the rest of a form: uploads are limited to what the body leaves",
            metadata: ["max-file": "\(file)", "max-body": "\(body)", "upload-limit": "\(room)"])
        return room
    }

    /// The forms a server with `hooks` serves from `folder`: the folder's and those written in Swift,
    /// with the options Swift gives them; a problem in any throws every problem found.
    public static func servedCatalog(folder: String, hooks: FormHooks) throws -> FormCatalog {
        guard hooks.rowTypeProblems.isEmpty else {
            throw FormServerError(message: "invalid row types:\n" + hooks.rowTypeProblems.joined(separator: "\n"))
        }
        do {
            return try FormCatalog(folder: folder, loader: FormLoader(rowTypes: hooks.rowTypes))
                .adding(hooks.servedDefinitions).applying(hooks.optionProviders)
        } catch {
            throw FormServerError(message: "invalid forms:\n" + error.description)
        }
    }

    /// Starts listening.
    public func start() throws {
        try server.start()
        // Once the server listens: a second server that could not would otherwise send jobs meanwhile.
        do {
            try deliveries?.start()
        } catch {
            _ = server.shutdown(gracePeriod: .zero)
            throw error
        }
    }

    /// Where valid submissions go, opened now so that a store that cannot be written stops the server
    /// before it answers anyone; says where they go, and which forms they are lost to.
    private static func submissionKeeper(
        _ configuration: FormServerConfiguration, catalog: FormCatalog, hooks: FormHooks, logger: Logger
    ) throws -> (any SubmissionKeeper)? {
        let unhandled = catalog.ids.filter { hooks.handlers[$0] == nil }
        if let location = configuration.store, location != "none" {
            guard configuration.submissionsFolder == nil else {
                throw FormServerError(message: "give --store or --submissions, not both")
            }
            let database = try StoreLocation.open(location)
            logger.info(
                "valid submissions kept",
                metadata: [
                    "store": "\(StoreLocation.redacted(location))", "forms": "\(unhandled.joined(separator: ", "))",
                ])
            var keeper = DatabaseKeeper(database: database)
            for id in catalog.ids {
                guard let form = catalog.forms[id] else { continue }
                let charted = ChartedRows(form: form)
                if !charted.rows.isEmpty { keeper.charted[id] = charted }
            }
            return keeper
        }
        guard let folder = configuration.submissionsFolder else {
            if !unhandled.isEmpty {
                logger.notice(
                    "valid submissions are answered but not kept (--store none): give --store sqlite:PATH to keep them",
                    metadata: ["forms": "\(unhandled.joined(separator: ", "))"])
            }
            return nil
        }
        do {
            let store = try SubmissionStore(folder: folder, forms: unhandled, logger: logger)
            logger.info(
                "valid submissions kept",
                metadata: ["folder": "\(folder)", "forms": "\(unhandled.joined(separator: ", "))"])
            return store
        } catch {
            throw FormServerError(message: "cannot keep submissions: \(error.description)")
        }
    }

    /// Runs the option providers of form `formID` again (of every form that has some, when nil) and
    /// serves what they give from now on: call it when the data behind them changes. Each form is
    /// recompiled and its pages rebuilt first, then swapped in at once; requests under way finish with
    /// the form they began with. Throws, keeping the old form, when the new options do not fit it (a
    /// default that is no longer an option) or the form has no providers.
    ///
    /// ```swift
    /// hooks.options(form: "booking", row: "room") { rooms.all().map { Option($0.id, title: $0.name) } }
    /// // … after a room is added:
    /// try app.reloadOptions(of: "booking")
    /// ```
    public func reloadOptions(of formID: String? = nil) throws {
        let ids = formID.map { [$0] } ?? forms.hooks.optionProviders.keys.sorted()
        var problems: [LoadProblem] = []
        for id in ids {
            do { try forms.reloadOptions(of: id) } catch { problems += error.problems }
        }
        guard problems.isEmpty else {
            throw FormServerError(message: "options not reloaded:\n" + LoadProblems(problems).description)
        }
        logger.info("options reloaded", metadata: ["forms": "\(ids.joined(separator: ", "))"])
    }

    /// Drains requests in flight, then stops; returns whether all of them finished in time.
    @discardableResult
    public func shutdown(gracePeriod: Duration = .seconds(8)) -> Bool {
        let finished = server.shutdown(gracePeriod: gracePeriod)
        // After the server: a post answered during the drain has its jobs written, and they wait in the store.
        deliveries?.stop()
        return finished
    }

    static func routes(
        files: StaticFiles, forms: FormRoutes, catalog: FormCatalog, access: AdminAccess, logger: Logger
    ) throws -> Router {
        var routes = RouterBuilder()
        forms.add(to: &routes)
        let keeper = forms.store as? DatabaseKeeper
        let api = SubmissionAPI(database: keeper?.database, forms: catalog.forms, logger: logger)
        api.add(to: &routes)
        DeliveryAPI(api: api).add(to: &routes)
        AdminRoutes(
            database: keeper?.database, forms: catalog.forms, order: catalog.ids, access: access,
            throttle: SignInThrottle(), delivering: Set(keeper.map { Array($0.deliveries.keys) } ?? []), logger: logger
        ).add(to: &routes)
        routes.get("/") { _ in .redirect(to: "/forms") }
        // Liveness: the process answers. Readiness: it can also keep submissions, for a load balancer
        // to send posts elsewhere while its database is away.
        let healthy = try PreparedResponse(.text(.ok, "ok"))
        routes.get("/healthz") { _ in Response(healthy) }
        let store = forms.store
        routes.get("/readyz") { _ in
            guard let store else { return Response(healthy) }
            return .later {
                do {
                    try await store.checkReady()
                    return Answers.json(.ok, await readiness(store))
                } catch {
                    logger.warning("not ready: the store does not answer", metadata: ["error": "\(error)"])
                    var response = Response.text(.serviceUnavailable, "the store does not answer")
                    response.headers["Retry-After"] = "5"
                    return response
                }
            }
        }
        routes.files("/static", files)
        return routes.freeze()
    }

    /// Every custom validator a form calls must be registered, and every handler must name a form:
    /// a typo is a start-up error, not a request-time surprise.
    static func checkHooks(_ hooks: FormHooks, catalog: FormCatalog) throws {
        var problems: [String] = []
        for name in hooks.validatorsRegisteredTwice.sorted() {
            problems.append("the custom validator '\(name)' is registered twice: only one closure can answer to a name")
        }
        problems += unregisteredValidatorProblems(in: catalog, registered: hooks.validators)
        problems += unregisteredSourceProblems(in: catalog, registered: hooks.optionSources)
        for name in hooks.optionSourcesRegisteredTwice.sorted() {
            problems.append("the option source '\(name)' is registered twice: only one can answer to a name")
        }
        problems += messageProblems(in: catalog)
        for id in hooks.handlers.keys.sorted() where catalog.forms[id] == nil {
            problems.append("a handler is registered for the form '\(id)', which does not exist")
        }
        for id in hooks.recordProviders.keys.sorted() where catalog.forms[id] == nil {
            problems.append("stored records are provided for the form '\(id)', which does not exist")
        }
        guard problems.isEmpty else { throw FormServerError(message: problems.joined(separator: "\n")) }
    }

    /// Every row of `catalog`'s forms whose descriptor calls a custom validator not in `registered`,
    /// with where it is: `form 'signup', sections[0].rows[2].validators[1]: calls the custom validator …`.
    /// `formwright check` reports them as `serve` would refuse them.
    public static func unregisteredValidatorProblems(
        in catalog: FormCatalog, registered: [String: CustomValidator]
    ) -> [String] {
        var problems: [String] = []
        for id in catalog.ids {
            guard let form = catalog.forms[id]?.form else { continue }
            var places: [(path: String, row: Row)] = form.allRows.map {
                ("sections[\($0.section)].rows[\($0.row)]", $0.value)
            }
            for (index, section) in form.sections.enumerated() {
                if let template = section.rowTemplate { places.append(("sections[\(index)].rowTemplate", template)) }
            }
            for (path, row) in places {
                for (index, validator) in row.validators.enumerated() {
                    guard case .custom(let name) = validator.kind, registered[name] == nil else { continue }
                    problems.append(
                        "form '\(id)', \(path).validators[\(index)]: calls the custom validator '\(name)', "
                            + "which is not registered in Swift (FormHooks.validator)")
                }
            }
        }
        return problems
    }

    /// Every row of `catalog`'s forms whose options come from a source not in `registered`, with where it
    /// is. `formwright check` reports them as `serve` would refuse them.
    public static func unregisteredSourceProblems(
        in catalog: FormCatalog, registered: [String: OptionSource]
    ) -> [String] {
        catalog.ids.flatMap { id in
            (catalog.forms[id]?.form.allRows ?? []).compactMap { entry -> String? in
                guard let name = entry.value.optionsFrom, registered[name] == nil else { return nil }
                return "form '\(id)', sections[\(entry.section)].rows[\(entry.row)]: takes its options from '\(name)', "
                    + "which is not registered in Swift (FormHooks.optionSource)"
            }
        }
    }

    /// Warnings, not problems: the conditions of `catalog`'s forms that cannot be evaluated on a form's
    /// own defaults (what a fresh page shows), each with where it is and why. Such a condition counts as
    /// false (`ConditionFailure`), which may be what its author meant, so `check` shows them without
    /// failing and `serve` logs them: `$country.length > 20` fails while the country is empty.
    public static func conditionWarnings(in catalog: FormCatalog) -> [String] {
        catalog.ids.flatMap { id -> [String] in
            guard let form = catalog.forms[id] else { return [] }
            return FormEngine(form: form).initial().conditionFailures.map { failure in
                "form '\(id)', \(failure.place.description(in: form)): the condition `\(failure.source)` cannot "
                    + "be evaluated on the form's defaults and counts as false there: \(failure.error)"
            }
        }
    }

    /// The problems of `catalog`'s forms' own texts (`messages`): a locale that is no language tag, a
    /// code that names no message or page text (it would never be shown), a `{placeholder}` the code
    /// does not fill in (it would be shown as written).
    public static func messageProblems(in catalog: FormCatalog) -> [String] {
        let codes = Messages.codes.merging(PageTexts.codes) { message, _ in message }
        var problems: [String] = []
        for id in catalog.ids {
            guard let form = catalog.forms[id]?.form else { continue }
            for locale in form.messages.keys.sorted() {
                let at = "form '\(id)', messages.\(locale)"
                // The same rule as the form's own `locale` (ModelChecks): well-formed BCP 47.
                if !LanguageTag.isWellFormed(locale) {
                    let tag = locale.replacingOccurrences(of: "_", with: "-")
                    problems.append("\(at): '\(locale)' is not a language tag (BCP 47, such as 'fr' or '\(tag)')")
                }
                for (code, text) in (form.messages[locale] ?? [:]).sorted(by: { $0.key < $1.key }) {
                    guard let builtIn = codes[code] else {
                        // A suggestion only when one is close: a far one would mislead more than help.
                        let hint =
                            closestName(to: code, among: codes.keys, within: 3).map { "did you mean '\($0)'?" }
                            ?? "docs/submissions.md, \"Error codes\", lists the codes"
                        problems.append("\(at).\(code): no message or page text has this code (\(hint))")
                        continue
                    }
                    let allowed = placeholders(in: builtIn)
                    for placeholder in placeholders(in: text) where !allowed.contains(placeholder) {
                        let known =
                            allowed.isEmpty ? "none" : allowed.sorted().map { "{\($0)}" }.joined(separator: ", ")
                        problems.append(
                            "\(at).\(code): '{\(placeholder)}' is not filled in for this code (it fills in \(known))")
                    }
                }
            }
        }
        return problems
    }

    /// The names in `{…}` in `text`.
    private static func placeholders(in text: String) -> Set<String> {
        Set(text.matches(of: #/\{([A-Za-z]+)\}/#).map { String($0.output.1) })
    }

    /// A folder the server needs must exist and be readable; say which one when it is not.
    static func checkFolder(_ path: String, role: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FormServerError(message: "the \(role) folder '\(path)' does not exist")
        }
        guard isDirectory.boolValue else {
            throw FormServerError(message: "the \(role) folder '\(path)' is not a folder")
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw FormServerError(message: "the \(role) folder '\(path)' cannot be read")
        }
    }
}

/// A problem that stops the application from starting, in words for the person starting it.
public struct FormServerError: Error, CustomStringConvertible {
    /// What is wrong.
    public let message: String
    public var description: String { message }
}
