import Foundation
import Testing

@testable import FormPredicate

/// Foundation also declares `Predicate`; this module-wide alias picks ours wherever both are imported.
typealias Predicate = FormPredicate.Predicate

/// One line of the predicate conformance corpus.
struct CorpusCase: Decodable, Sendable, CustomTestStringConvertible {
    let id: String
    let area: String
    let predicate: String
    let vars: [String: PredicateValue]
    let expect: String

    var testDescription: String { "\(id): \(predicate)" }
}

/// What running a predicate gave: a boolean, or an error (of either phase).
enum Outcome: Equatable, CustomStringConvertible {
    case result(Bool)
    case error

    var description: String {
        switch self {
        case .result(let flag): String(flag)
        case .error: "error"
        }
    }

    init(expectation: String) {
        switch expectation {
        case "true": self = .result(true)
        case "false": self = .result(false)
        default: self = .error
        }
    }
}

enum Fixtures {
    /// The corpus, found from this file: the package root is three levels up, the corpus in `Tests/Predicates`.
    static let corpusURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Predicates/cases.jsonl")

    static let corpus: [CorpusCase] = {
        guard let text = try? String(contentsOf: corpusURL, encoding: .utf8) else { return [] }
        let decoder = JSONDecoder()
        return text.split(separator: "\n").compactMap { line in
            try? decoder.decode(CorpusCase.self, from: Data(line.utf8))
        }
    }()

    /// The seed form's tags, as the form engine would pass them.
    static let formTags: Set<String> = ["all-day", "all", "starts", "ends", "alert", "second-alert", "age", "first"]

    static func outcome(_ source: String, _ vars: [String: PredicateValue]) -> Outcome {
        guard let predicate = try? Predicate(source) else { return .error }
        return outcome(predicate, vars)
    }

    static func outcome(_ predicate: Predicate, _ vars: [String: PredicateValue]) -> Outcome {
        guard let result = try? predicate.evaluate(vars) else { return .error }
        return .result(result)
    }

    static func parseError(_ source: String, options: PredicateParseOptions = .init()) -> PredicateParseError? {
        do {
            _ = try Predicate(source, options: options)
            return nil
        } catch {
            return error
        }
    }
}
