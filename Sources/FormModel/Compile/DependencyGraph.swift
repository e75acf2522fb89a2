/// A node of a form's dependency graph: one fact the server computes per submission.
public enum FormFact: Hashable, Sendable, CustomStringConvertible {
    /// Whether row `index` (in `CompiledForm.rows`) is hidden, its section's state included.
    case rowHidden(Int)
    /// Whether row `index` is disabled.
    case rowDisabled(Int)
    /// The value row `index` shows to conditions (null when hidden under `hiddenValues: clear`).
    case rowValue(Int)
    /// Whether section `index` is hidden.
    case sectionHidden(Int)
    /// The values of multivalued section `index`, as an array read through its `multivaluedTag`.
    case sectionValue(Int)

    public var description: String {
        switch self {
        case .rowHidden(let index): "row \(index).hidden"
        case .rowDisabled(let index): "row \(index).disabled"
        case .rowValue(let index): "row \(index).value"
        case .sectionHidden(let index): "section \(index).hidden"
        case .sectionValue(let index): "section \(index).value"
        }
    }
}

/// Facts and what each one reads; ordered so every fact comes after the facts it reads.
struct DependencyGraph {
    private(set) var edges: [FormFact: [FormFact]] = [:]
    private(set) var facts: [FormFact] = []

    mutating func add(_ fact: FormFact) {
        if edges[fact] == nil {
            edges[fact] = []
            facts.append(fact)
        }
    }

    /// `fact` reads `dependency`.
    mutating func add(_ fact: FormFact, reads dependency: FormFact) {
        add(fact)
        add(dependency)
        if !edges[fact]!.contains(dependency) { edges[fact]!.append(dependency) }
    }

    /// The facts in an order where each comes after what it reads, or every cycle found when there is none.
    ///
    /// The depth-first walk goes on past a cycle, so a form with several is told about all of them in one
    /// run: each edge that closes a loop (a back edge) gives one cycle, the path from the fact it reads
    /// to the fact that reads it, so no cycle is reported twice and breaking each one reported leaves none.
    func ordered() -> Result<[FormFact], CycleError> {
        var state: [FormFact: Int] = [:]  // 1 = on the current path, 2 = done
        var order: [FormFact] = []
        var path: [FormFact] = []
        var cycles: [[FormFact]] = []

        func visit(_ fact: FormFact) {
            if state[fact] == 2 { return }
            if state[fact] == 1 {
                let start = path.firstIndex(of: fact)!
                cycles.append(Array(path[start...]) + [fact])
                return
            }
            state[fact] = 1
            path.append(fact)
            for dependency in edges[fact] ?? [] { visit(dependency) }
            path.removeLast()
            state[fact] = 2
            order.append(fact)
        }

        for fact in facts { visit(fact) }
        return cycles.isEmpty ? .success(order) : .failure(CycleError(cycles: cycles))
    }

    /// The dependency cycles of a form, each as the facts along it (the first repeated at the end).
    struct CycleError: Error {
        let cycles: [[FormFact]]
    }
}
