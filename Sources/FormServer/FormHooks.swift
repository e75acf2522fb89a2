import FormEngine
import FormModel
import HTTPServer

/// What a Swift user plugs into the server: validators called by name from descriptors, option lists
/// computed in Swift, and per-form handlers that receive a valid submission.
///
/// ```swift
/// var hooks = FormHooks()
/// hooks.validator("invitationCode") { $0.description.hasPrefix("FW-") ? nil : "Codes start with FW-" }
/// hooks.options(form: "event", row: "repeat") { [Option("never", title: "Never"), Option("daily")] }
/// hooks.handle("event") { submission in
///     store(submission.verdict.httpParameters)
///     return .redirect(to: "/thanks")
/// }
/// hooks.handle("pets", async: { submission in
///     await database.insert(submission.httpParameters)
///     return .redirect(to: "/thanks")
/// })
/// let app = try FormServerApp(configuration: configuration, hooks: hooks)
/// ```
public struct FormHooks: Sendable {
    /// Custom validators by name.
    public var validators: [String: CustomValidator] = [:]
    /// Handlers by form id; a form without one gets the default answers (303 or JSON 200).
    public var handlers: [String: SubmissionHandler] = [:]
    /// Option providers by form id, then row tag.
    public var optionProviders: [String: [String: OptionProvider]] = [:]
    /// Record providers by form id: which stored record a request edits.
    var recordProviders: [String: RecordProvider] = [:]
    /// Forms written in Swift to serve beside the folder's, in the order given.
    var servedDefinitions: [FormDefinition] = []
    /// The row types descriptors may name: the built-in ones and those `rowType` registered.
    public private(set) var rowTypes = RowTypes.builtIn
    /// Row types that could not be registered (a name taken, a bad name): the server refuses to start.
    public private(set) var rowTypeProblems: [String] = []
    /// Option sources by name, which rows search (`optionsFrom`).
    public private(set) var optionSources: [String: OptionSource] = [:]
    /// Option source names registered twice: the server refuses to start.
    public private(set) var optionSourcesRegisteredTwice: Set<String> = []
    /// Validator names registered twice, by `validator` and `register` or by two definitions: only one
    /// closure can answer to a name, so the server refuses to start rather than drop one silently.
    var validatorsRegisteredTwice: Set<String> = []

    /// No hooks.
    public init() {}

    /// Registers an option source, which rows name as `optionsFrom: NAME`: a selector searched as the
    /// reader types, whose submitted value `source` confirms (`OptionSource`).
    public mutating func optionSource(_ source: OptionSource) {
        if optionSources[source.name] != nil { optionSourcesRegisteredTwice.insert(source.name) }
        optionSources[source.name] = source
    }

    /// Registers a row type of the application's own (`RowType.custom`), which descriptors then name
    /// as `type: NAME` and `formwright check` knows. A name already taken stops the server at start.
    public mutating func rowType(_ type: RowType) {
        do {
            try rowTypes.register(type)
        } catch {
            rowTypeProblems.append(error.message)
        }
    }

    /// Registers a validator descriptors call as `{kind: custom, name: NAME}`.
    public mutating func validator(_ name: String, _ check: @escaping @Sendable (FormValue) -> String?) {
        if validators[name] != nil { validatorsRegisteredTwice.insert(name) }
        validators[name] = CustomValidator(name, check: check)
    }

    /// Registers every closure of a form written with the Swift DSL.
    public mutating func register(_ definition: FormDefinition) {
        for name in definition.customValidators.keys where validators[name] != nil {
            validatorsRegisteredTwice.insert(name)
        }
        validators.merge(definition.customValidators) { first, _ in first }
    }

    /// Serves a form written in Swift beside the descriptors of the forms folder, and registers its
    /// closures (`register`). It is compiled when the server starts; a problem in it, or an id a
    /// descriptor also uses, stops the server with a message naming the Swift file.
    public mutating func serve(_ definition: FormDefinition) {
        register(definition)
        servedDefinitions.append(definition)
    }

    /// Registers the handler of form `formID`'s valid submissions.
    public mutating func handle(_ formID: String, _ handler: @escaping SubmissionHandler) {
        handlers[formID] = handler
    }

    /// Registers a handler of form `formID`'s valid submissions that must await something (a database,
    /// a mail service) before it answers. It runs as a Swift task while the connection waits suspended,
    /// holding no server thread (`Response.later`); the submission is judged before, as for any handler.
    public mutating func handle(
        _ formID: String, async handler: @escaping @Sendable (ValidSubmission) async -> Response
    ) {
        handlers[formID] = { submission in .later { await handler(submission) } }
    }

    /// Makes form `formID` edit stored records: `find` tells, per request, which record the page shows
    /// and the submission keeps (`RecordLookup`). The page starts from the record's values; disabled
    /// rows keep them whatever is posted (docs/submissions.md, rule 5), and a JSON client that leaves a key out
    /// keeps its stored value. The page posts back to the address it came from, query included, so
    /// `find` sees the same request parameters when the form is sent.
    ///
    /// `find` runs on a server thread for every page and submission of the form: it must be quick (a
    /// cache, an in-memory table). One that must await a database uses `records(_:async:)`.
    public mutating func records(_ formID: String, _ find: @escaping @Sendable (Request) -> RecordLookup) {
        recordProviders[formID] = .now(find)
    }

    /// `records(_:_:)` for a provider that awaits: the connection waits suspended meanwhile, holding no
    /// server thread (`Response.later`).
    public mutating func records(_ formID: String, async find: @escaping @Sendable (Request) async -> RecordLookup) {
        recordProviders[formID] = .later(find)
    }

    /// Gives row `tag` of form `formID` its options from Swift. The closure runs when the server starts,
    /// and again at each `FormServerApp.reloadOptions`: options are part of the compiled form, like
    /// everything else a request relies on, so a request never waits for them.
    public mutating func options(form formID: String, row tag: String, _ provider: @escaping OptionProvider) {
        optionProviders[formID, default: [:]][tag] = provider
    }
}

/// Answers a valid submission: a redirect, a page, JSON — any `Response`.
public typealias SubmissionHandler = @Sendable (ValidSubmission) -> Response

/// The options of a selector row, computed in Swift.
public typealias OptionProvider = @Sendable () -> [Option]
