import ArgumentParser

/// `formwright`: serves XLForm-style form descriptors as web forms.
@main
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
        ],
        defaultSubcommand: nil
    )
}
