import CAllocationCounter
import FormEngine
import FormModel
import Foundation
import HTTPServer

// Release-build figures for one valid submission of the calendar event form, as the server judges
// it for `Accept: application/json`: `evaluate`, then the payload's JSON bytes (FormRoutes.submit,
// Answers.json). Run from the repository root: `make bench-engine`, or the built submit-bench [iterations]
// `--print` writes the payload once instead, to compare the bytes across changes.

/// The body `bench/submit-event.sh` posts, without its `_csrf` field (the engine ignores unknown fields).
let body =
    "title=Team+lunch&location=Canteen&all-day=on&starts=2026-11-23T12%3A00&ends=2026-11-23T13%3A00"
    + "&repeat=weekly&alert=15m&second-alert=5m&url=https%3A%2F%2Fexample.com%2Flunch"
    + "&email=team%40example.com&guests=8&notes=Bring+cake"

/// The fields as `SubmissionBody.fields` builds them from an urlencoded body.
func submittedFields() -> SubmittedFields {
    guard let pairs = QueryParameters.parse(urlencoded: Array(body.utf8)) else { fatalError("malformed body") }
    var fields = SubmittedFields()
    for pair in pairs { fields.append(pair.name, .text(pair.value)) }
    return fields
}

/// One request's worth of engine work; returns the payload's size so nothing is optimised away.
@inline(never)
func judge(_ engine: FormEngine, _ fields: SubmittedFields) -> Int {
    let verdict = engine.evaluate(fields, locale: "en")
    precondition(verdict.isValid, "the benchmark submission must be valid")
    return verdict.payloadJSONBytes.count
}

let arguments = CommandLine.arguments.dropFirst()
let catalog = try FormCatalog(folder: "Forms")
guard let form = catalog.forms["event"] else { fatalError("Forms/event.json not found; run from the repository root") }
let engine = FormEngine(form: form)
let fields = submittedFields()

if arguments.contains("--print") {
    print(String(decoding: engine.evaluate(fields, locale: "en").payloadJSONBytes, as: UTF8.self))
    exit(0)
}

let iterations = arguments.first.flatMap { Int($0) } ?? 200_000
var size = 0
for _ in 0..<1_000 { size &+= judge(engine, fields) }  // Warm up caches and lazily initialised runtime state.

let allocationsBefore = allocation_counter_count()
let start = DispatchTime.now().uptimeNanoseconds
for _ in 0..<iterations { size &+= judge(engine, fields) }
let elapsed = DispatchTime.now().uptimeNanoseconds - start
let allocations = allocation_counter_count() - allocationsBefore
precondition(size > 0)

print(
    String(
        format: "evaluate + payloadJSONBytes  %8.0f ns/iteration  %6.1f allocations/iteration  (%d iterations)",
        Double(elapsed) / Double(iterations), Double(allocations) / Double(iterations), iterations))
