/// LIKE: `*` matches any run (even empty), `?` exactly one character; everything else is literal.
enum LikePattern {
    /// Whether `text` matches `pattern`; `budget` is charged for every step of the scan.
    static func matches(
        _ text: String, pattern: String, options: ComparisonOptions, budget: EvaluationBudget? = nil
    ) throws(EvaluationBudget.Spent) -> Bool {
        let subject = Array(StringFolding.fold(text, options).unicodeScalars)
        let wildcard = Array(StringFolding.fold(pattern, options).unicodeScalars)
        // Greedy scan that backtracks only to the last `*`: O(n * m) at worst, never exponential.
        var s = 0
        var p = 0
        var starPattern = -1
        var starSubject = 0
        var steps = 0
        while s < subject.count {
            // Charged in batches: a call per step would cost more than the step.
            steps += 1
            if steps == 4096, let budget {
                try budget.spend(steps)
                steps = 0
            }
            if p < wildcard.count, wildcard[p] == "?" || wildcard[p] == subject[s] && wildcard[p] != "*" {
                s += 1
                p += 1
            } else if p < wildcard.count, wildcard[p] == "*" {
                starPattern = p
                starSubject = s
                p += 1
            } else if starPattern >= 0 {
                p = starPattern + 1
                starSubject += 1
                s = starSubject
            } else {
                return false
            }
        }
        while p < wildcard.count, wildcard[p] == "*" { p += 1 }
        try budget?.spend(steps)
        return p == wildcard.count
    }
}
