import ArgumentParser
import FormModel
import FormServer

/// `formwright check [Forms]`: loads and compiles every descriptor, reporting every problem.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the form descriptors in a folder.",
        discussion: """
            Prints every problem (file, place in the file, what is wrong) and exits 1, or prints one \
            line per form and exits 0. 'serve' runs the same checks and refuses to start on a problem. \
            Conditions that cannot be evaluated on a form's defaults (and so count as false) are \
            printed as warnings, which do not fail the check.
            """
    )

    @Argument(help: "The folder of form descriptors.")
    var folder = "Forms"

    func run() throws {
        let catalog: FormCatalog
        do {
            catalog = try FormCatalog(folder: folder)
        } catch {
            report(error.problems.map(\.description))
        }
        // The custom validators `serve` registers (`FormwrightCommandLine.run`): a form calling another
        // would stop it.
        let unregistered = FormServerApp.unregisteredValidatorProblems(
            in: catalog, registered: FormwrightCommandLine.hooks(formsFolder: folder).validators)
        let texts = FormServerApp.messageProblems(in: catalog)
        if !unregistered.isEmpty || !texts.isEmpty { report(unregistered + texts) }
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
