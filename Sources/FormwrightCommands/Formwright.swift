import ArgumentParser
import FormServer
import Synchronization

/// The `formwright` command line, run by a binary with the Swift side of the forms it serves: the
/// product's `formwright` registers nothing, the examples' `formwright-examples` registers theirs,
/// and an application's own server registers its own.
///
/// ```swift
/// // main.swift
/// FormwrightCommandLine.run { formsFolder in
///     var hooks = FormHooks()
///     hooks.validator("postcode") { $0.description.count == 5 ? nil : "A postcode has five digits" }
///     return hooks
/// }
/// ```
public enum FormwrightCommandLine {
    /// The hooks for the forms in `formsFolder` (nil for a command that reads one form file).
    public typealias Hooks = @Sendable (_ formsFolder: String?) -> FormHooks

    private static let registered = Mutex<Hooks>({ _ in FormHooks() })

    /// Parses the process's arguments and runs the command they name, with `hooks` for every command
    /// that loads forms (`serve`, `check`, `render`, `evaluate`).
    public static func run(hooks: @escaping Hooks) {
        registered.withLock { $0 = hooks }
        Formwright.main()
    }

    /// The hooks `run` was given, for the forms in `formsFolder`.
    static func hooks(formsFolder: String?) -> FormHooks {
        registered.withLock { $0 }(formsFolder)
    }
}

/// `formwright`: serves XLForm-style form descriptors as web forms.
struct Formwright: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "formwright",
        abstract: "Serve XLForm/Eureka-style form descriptors as accessible web forms.",
        discussion: """
            Forms are JSON or YAML descriptors in a folder (Forms/ by default): sections of rows with \
            tags, row types, validators and hidden/disabled conditions written as NSPredicate strings. \
            The server renders them as HTML, re-evaluates every condition on each submission, \
            validates, and answers with errors or XLForm's httpParameters.

            Every option of 'serve' can also come from a FORMWRIGHT_* environment variable, for containers.
            """,
        subcommands: [
            Serve.self, CheckCommand.self, EvaluateCommand.self, RenderCommand.self, PredicateCommand.self, Probe.self,
            SubmissionsCommand.self,
            DeliveriesCommand.self,
            KeysCommand.self,
            ImportCommand.self,
        ],
        defaultSubcommand: nil
    )
}
