import ArgumentParser
import FormModel
import FormServer
import Foundation

/// `formwright check [Forms]`: loads and compiles every descriptor, reporting every problem.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the form descriptors in a folder.",
        discussion: """
            Prints every problem (file, place in the file, what is wrong) and exits 1, or prints one \
            line per form and exits 0. 'serve' runs the same checks and refuses to start on a problem. \
            Conditions that cannot be evaluated on a form's defaults (and so count as false) are \
            printed as warnings, which do not fail the check. A form's deliveries are checked as 'serve' \
            checks them: each webhook's secret in the environment, and for e-mail an SMTP server and a \
            sender (--smtp, --mail-from, or FORMWRIGHT_SMTP and FORMWRIGHT_MAIL_FROM).
            """
    )

    @Argument(help: "The folder of form descriptors.")
    var folder = "Forms"

    @ArgumentParser.Option(help: "The SMTP server 'serve' will send e-mail through. (env: FORMWRIGHT_SMTP)")
    var smtp: String?

    @ArgumentParser.Option(help: "The address e-mail deliveries come from. (env: FORMWRIGHT_MAIL_FROM)")
    var mailFrom: String?

    func run() throws {
        // The row types and custom validators `serve` registers (`FormwrightCommandLine.run`): a form
        // naming another would stop it.
        let hooks = FormwrightCommandLine.hooks(formsFolder: folder)
        let registrations =
            hooks.rowTypeProblems
            + hooks.optionSourcesRegisteredTwice.sorted().map {
                "the option source '\($0)' is registered twice: only one can answer to a name"
            }
        if !registrations.isEmpty { report(registrations) }
        let catalog: FormCatalog
        do {
            catalog = try FormCatalog(folder: folder, loader: FormLoader(rowTypes: hooks.rowTypes))
        } catch {
            report(error.problems.map(\.description))
        }
        let unregistered =
            FormServerApp.unregisteredValidatorProblems(in: catalog, registered: hooks.validators)
            + FormServerApp.unregisteredSourceProblems(in: catalog, registered: hooks.optionSources)
        let texts = FormServerApp.messageProblems(in: catalog)
        let environment = ProcessInfo.processInfo.environment
        let deliveries = FormServerApp.deliveryProblems(
            in: catalog, environment: environment, smtp: smtp ?? environment["FORMWRIGHT_SMTP"],
            mailFrom: mailFrom ?? environment["FORMWRIGHT_MAIL_FROM"])
        let problems = unregistered + texts + deliveries
        if !problems.isEmpty { report(problems) }
        for id in catalog.ids {
            guard let form = catalog.forms[id] else { continue }
            let conditions =
                form.rows.filter { !$0.hidden.reads.isEmpty || !$0.disabled.reads.isEmpty }.count
                + form.sections.filter { !$0.hidden.reads.isEmpty }.count
            print(
                "ok \(id): \(counted(form.sections.count, "section")), \(counted(form.rows.count, "row")), "
                    + counted(conditions, "condition"))
        }
        if catalog.ids.isEmpty { print("no forms in \(folder)") }
        // Not problems: such a condition counts as false, which may be meant; said, so it is not a surprise.
        for warning in FormServerApp.conditionWarnings(in: catalog) { print("warning: \(warning)") }
    }

    /// `1 row`, `2 rows`, `0 rows`.
    private func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    /// Prints `problems` and their count, and exits 1.
    private func report(_ problems: [String]) -> Never {
        for problem in problems { print(problem) }
        print("\(problems.count) problem\(problems.count == 1 ? "" : "s") found")
        Self.exit(withError: ExitCode(1))
    }
}
