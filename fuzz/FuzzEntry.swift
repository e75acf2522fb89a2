// libFuzzer entry: compiled together with the FormPredicate sources by run.sh (one module, so internals are
// visible). Any input must parse or fail cleanly; whatever parses must print to source that reparses to the
// same text, encode to JSON, and evaluate (or fail cleanly) against fixed variable sets.

/// Variable sets covering every value kind, so evaluation reaches every operator's branches.
private let variableSets: [[String: PredicateValue]] = [
    [:],
    ["x": 1, "y": 2.5, "s": "héllo wörld", "a": [1, "a", nil, [2]], "d": ["k": 1, "value": "v", "isHidden": false]],
    ["x": nil, "y": "3", "s": "", "a": [], "d": [:], "all-day": true, "alert": "never", "age": ["value": 13]],
    [
        "x": "ÅNGSTRÖM", "y": true, "s": .string(String(repeating: "a", count: 40) + "!"), "a": ["x", "y", "z"],
        "d": ["rows": [["value": 3], ["value": 4]]], "row": ["value": nil, "isHidden": true],
    ],
]

private let optionSets: [PredicateParseOptions] = [
    PredicateParseOptions(),
    .form(tags: ["x", "y", "s", "a", "d", "all-day", "all", "alert", "age", "row", "second-alert"]),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let source = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for options in optionSets {
        guard let predicate = try? Predicate(source, options: options) else { continue }
        let printed = predicate.description
        guard let reparsed = try? Predicate(printed, options: options) else {
            fatalError("printed form does not parse: \(printed) (from \(source))")
        }
        if reparsed.description != printed {
            fatalError("printing is unstable: \(printed) -> \(reparsed.description)")
        }
        _ = predicate.jsonAST()
        for (offset, vars) in variableSets.enumerated() {
            let first = try? predicate.evaluate(vars, hidden: offset.isMultiple(of: 2) ? ["x"] : [], disabled: ["y"])
            let second = try? reparsed.evaluate(vars, hidden: offset.isMultiple(of: 2) ? ["x"] : [], disabled: ["y"])
            if first != second { fatalError("reparsed predicate evaluates differently: \(printed) (from \(source))") }
        }
    }
    // The same bytes as a regex pattern, for the `regex` validator's use of SafeRegex.
    if let regex = try? SafeRegex(source, caseInsensitive: size % 2 == 0) {
        _ = regex.matches("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!")
        _ = regex.containsMatch(in: "Hello, wörld 123 _x\n")
    }
    return 0
}
