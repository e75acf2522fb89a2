import CAllocationCounter
import FormPredicate
import Foundation

// Release-build figures for the predicate engine. Run: swift-locked run -c release predicate-bench

/// Seconds elapsed while running `body`.
func measure(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// Evaluations per second of `source` against `values`, on this thread.
func evaluationsPerSecond(_ source: String, _ values: [PredicateValue?], iterations: Int) throws -> Double {
    let predicate = try Predicate(source)
    var matches = 0
    let seconds = try measure {
        for _ in 0..<iterations where try predicate.evaluate(in: values) { matches += 1 }
    }
    precondition(matches == iterations || matches == 0, "a benchmark predicate changed its answer")
    return Double(iterations) / seconds
}

/// Heap allocations per evaluation, from the interposed allocator's counter.
func allocationsPerEvaluation(_ source: String, _ values: [PredicateValue?], iterations: Int) throws -> Double {
    let predicate = try Predicate(source)
    _ = try predicate.evaluate(in: values)  // Warm up any lazily initialised runtime state.
    let before = allocation_counter_count()
    var matches = 0
    for _ in 0..<iterations where try predicate.evaluate(in: values) { matches += 1 }
    let after = allocation_counter_count()
    precondition(matches >= 0)
    return Double(after - before) / Double(iterations)
}

/// Microseconds to parse `source` once.
func parseMicroseconds(_ source: String, options: PredicateParseOptions, iterations: Int) throws -> Double {
    var count = 0
    let seconds = try measure {
        for _ in 0..<iterations { count += try Predicate(source, options: options).variables.count }
    }
    precondition(count > 0)
    return seconds / Double(iterations) * 1e6
}

let evaluations = 20_000_000
let rate = try evaluationsPerSecond("$alert == 'never'", [.string("never")], iterations: evaluations)
print(
    String(format: "evaluate  $alert == 'never'                       %8.1f M evaluations/s (target >= 10)", rate / 1e6)
)
let numberRate = try evaluationsPerSecond(
    "$age > 12 AND $flag == YES", [.number(30), .bool(true)], iterations: evaluations)
print(String(format: "evaluate  $age > 12 AND $flag == YES              %8.1f M evaluations/s", numberRate / 1e6))

let typical = "$age.value > 12 AND $first CONTAINS[c] 'hide' OR $alert == 'never'"
let formOptions = PredicateParseOptions.form(tags: ["age", "first", "alert", "all-day"])
let parse = try parseMicroseconds(typical, options: formOptions, iterations: 200_000)
print(String(format: "parse     %@  %6.2f µs (target <= 5)", typical, parse))
let simple = try parseMicroseconds("$alert == 'never'", options: formOptions, iterations: 200_000)
print(String(format: "parse     $alert == 'never'                        %6.2f µs", simple))

let scalarCases: [(String, [PredicateValue?])] = [
    ("$alert == 'never'", [.string("never")]),
    ("$alert != 'never'", [.string("a somewhat longer string value that is not small")]),
    ("$age >= 18", [.number(30)]),
    ("$flag == YES AND $n BETWEEN {1, 10}", [.bool(true), .number(3)]),
    ("$x == nil OR $y < 'm'", [.string("q"), .string("b")]),
    ("$s BEGINSWITH 'ab' AND $s ENDSWITH 'yz'", [.string("abxyz")]),
]
for (source, values) in scalarCases {
    let perEvaluation = try allocationsPerEvaluation(source, values, iterations: 100_000)
    print(String(format: "allocs    %-40@ %6.3f per evaluation (target 0)", source, perEvaluation))
}
let baseline = allocation_counter_count()
_ = try Predicate("$s ==[c] 'X'").evaluate(in: [.string("x")] as [PredicateValue?])
print(
    "allocs    (sanity: a [c] comparison allocates \(allocation_counter_count() - baseline) times, so counting works)")
