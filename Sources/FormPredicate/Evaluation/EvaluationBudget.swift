/// How much matching work a request may still do, in steps, shared by every condition and pattern it runs.
///
/// A step is one thread of the regular-expression engine advanced over one character, one position of a
/// `LIKE` scan, or one character of a string operand compared. Each is a few nanoseconds, so a budget
/// bounds the CPU one submission costs, whatever patterns and conditions the form's author wrote and
/// whatever the client sent. Spending past the end fails the work that asked, and every later request for
/// steps: the budget stays spent.
///
/// ```swift
/// let budget = EvaluationBudget(steps: 1_000_000)
/// let regex = try SafeRegex("(a|b)*c")
/// try regex.matches(String(repeating: "a", count: 10_000_000), budget: budget)  // throws: out of steps
/// budget.isSpent  // true
/// ```
///
/// A class, not `Sendable`: one request's checks share it, on the thread that runs them.
public final class EvaluationBudget {
    /// Thrown by work that found the budget spent.
    public struct Spent: Error, Sendable, Hashable, CustomStringConvertible {
        /// `the request's budget of matching steps is spent`.
        public var description: String { "the request's budget of matching steps is spent" }
    }

    /// The steps left.
    public private(set) var remaining: Int
    /// The steps the budget started with.
    public let limit: Int

    /// A budget of `steps`.
    public init(steps: Int) {
        remaining = steps
        limit = steps
    }

    /// Whether some work asked for more steps than were left.
    public var isSpent: Bool { remaining < 0 }

    /// Takes `steps`, or throws when fewer were left (and from then on, whatever is asked).
    public func spend(_ steps: Int) throws(Spent) {
        remaining = steps > remaining ? -1 : remaining - steps
        if remaining < 0 { throw Spent() }
    }
}
