import ArgumentParser
import FormPredicate
import Foundation

/// `formwright predicate`: evaluates predicates read as JSON lines, for conformance corpora and scripts.
struct PredicateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "predicate",
        abstract: "Evaluate NSPredicate format strings read as JSON lines on standard input.",
        discussion: """
            Each input line is {"predicate": "...", "vars": {...}}; each output line, in order, is \
            {"result": true|false} or {"error": "..."}. This is the protocol of Tests/Predicates/check.py. \
            A line with "ast": true is answered {"ast": <the parsed predicate as JSON>} instead, for \
            the browser evaluator's conformance test (Tests/JavaScript).
            """
    )

    func run() throws {
        PredicateLineProtocol.run(input: .standardInput, output: .standardOutput)
    }
}
