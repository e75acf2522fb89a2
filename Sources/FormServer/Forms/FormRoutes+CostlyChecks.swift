import Dispatch
import HTTPServer

// Submissions whose checks cost more than a few milliseconds (long values against patterns) are judged
// off the server's threads (docs/conditions.md, "Cost of checking").

extension FormRoutes {
    /// The steps a submission's checks may take on the server's own thread: a few milliseconds. One that
    /// needs more (long values against patterns) is judged again on `costlyChecks`, within the whole
    /// `checkingBudget`, so that the threads that answer every other request stay free.
    var inlineBudget: Int { checkingBudget / 32 }

    /// Where submissions too costly to judge inline are judged, one at a time: neither the server's threads
    /// nor the task pool (which stores submissions and runs handlers' awaits) wait behind them, and they
    /// take one core at the most.
    private static let costlyChecks = DispatchQueue(label: "formwright.costly-checks")

    /// `work`'s result, computed on `costlyChecks`.
    static func onCostlyChecks(_ work: @escaping @Sendable () -> Response) async -> Response {
        await withCheckedContinuation { answer in costlyChecks.async { answer.resume(returning: work()) } }
    }
}
