import FormEngine
import FormModel
import FormPredicate
import Logging
import Synchronization

/// Logs each condition that could not be evaluated (`Verdict.conditionFailures`) once per run of the
/// server, as a warning for the form's author: it counted as false, and no answer says so.
///
/// Once, not per submission: a condition that fails on every empty value would fill the log. A
/// failure is the same one whatever values caused it (its form, its place, its condition, the kind of
/// error), so what is remembered is bounded by the forms' conditions, not by what clients send. The
/// condition is part of it: a row's several `predicate` validators share one place.
final class ConditionFailureLog: Sendable {
    private struct Key: Hashable {
        let form: String
        let place: ConditionPlace
        let condition: String
        let code: PredicateEvaluationError.Code
    }

    private let logged = Mutex<Set<Key>>([])
    private let logger: Logger

    init(logger: Logger) { self.logger = logger }

    /// Logs those of `failures`, on `form`, not logged before.
    func note(_ failures: [ConditionFailure], on form: CompiledForm) {
        for failure in failures {
            let key = Key(form: form.form.id, place: failure.place, condition: failure.source, code: failure.error.code)
            guard logged.withLock({ $0.insert(key).inserted }) else { continue }
            logger.warning(
                "a condition could not be evaluated and counted as false (logged once; formwright evaluate shows why)",
                metadata: [
                    "form": "\(form.form.id)", "place": "\(failure.place.description(in: form))",
                    "condition": "\(failure.source)", "error": "\(failure.error)",
                ])
        }
    }
}
