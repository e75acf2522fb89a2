import FormEngine
import FormModel
import Foundation
import HTTPServer
import HTTPTestClient
import Synchronization
import Testing

@testable import FormServer

/// Selectors whose options come from a Swift option source (`optionsFrom`): a value is accepted only
/// when the source confirms it, a search answers the page script, a page without script searches by
/// posting, and a source that fails or is late makes the post `503`, never a hang or a wrong answer.
@Suite struct OptionSourceTests {
    static let planets = [Option("3", title: "Earth"), Option("4", title: "Mars"), Option("5", title: "Jupiter")]

    static let descriptor = """
        id: trip
        sections:
          - rows:
              - { tag: to, type: selectorPush, title: Destination, optionsFrom: planets, required: true }
              - { tag: note, type: text, title: Note }
        """

    static func source(delay: Duration = .zero, fails: Bool = false, deadline: Duration = .seconds(2)) -> OptionSource {
        OptionSource(
            "planets", deadline: deadline,
            search: { query, limit in
                if delay > .zero { Thread.sleep(forTimeInterval: Double(delay.components.seconds) + 0.5) }
                if fails { throw CustomRowError("the planets database is down") }
                return planets.filter { $0.title.lowercased().contains(query.lowercased()) }.prefix(limit).map { $0 }
            },
            lookup: { value in
                if delay > .zero { Thread.sleep(forTimeInterval: Double(delay.components.seconds) + 0.5) }
                if fails { throw CustomRowError("the planets database is down") }
                return planets.first { $0.value == value }
            })
    }

    static func run<T: Sendable>(
        _ source: OptionSource?, _ body: @escaping @Sendable (Int) throws -> T
    ) async throws -> T {
        var hooks = FormHooks()
        if let source { hooks.optionSource(source) }
        return try await CustomRowTypeTests.withForms(["trip.yaml": descriptor]) { folder in
            try await withFormApp(hooks: hooks, forms: folder) { _, port in try body(port) }
        }
    }

    @Test func aValueIsAcceptedOnlyWhenTheSourceConfirmsIt() async throws {
        let (valid, unknown, searched, missing, page) = try await Self.run(Self.source()) { port in
            (
                try postJSON(port, "trip", #"{"to":"4"}"#), try postJSON(port, "trip", #"{"to":"9"}"#),
                try request(port, "/forms/trip/options/to?q=AR"), try request(port, "/forms/trip/options/note?q=x"),
                try request(port, "/forms/trip").text
            )
        }
        #expect(valid.status == 200)
        // formValues carries the title the source gave; the form itself lists no options.
        #expect(valid.text.contains(#""formValues":{"to":{"value":"4","title":"Mars"}}"#))
        #expect(unknown.status == 422 && unknown.text.contains(#""code":"unknownOption""#))
        #expect(searched.status == 200)
        #expect(searched.text == #"{"options":[{"value":"3","title":"Earth"},{"value":"4","title":"Mars"}]}"#)
        #expect(missing.status == 404)
        #expect(page.contains(#"<div class="fw-search" data-fw-search="/forms/trip/options/to""#))
        #expect(page.contains(#"<script src="/static/forms-search.js" defer></script>"#))
    }

    /// Without a script: the Search button posts the page back with the matches and judges nothing;
    /// choosing one and sending is judged as any post, and the page shows the title the source gave.
    @Test func aPageWithoutScriptSearchesByPosting() async throws {
        let (searched, none, sent) = try await Self.run(Self.source()) { port in
            let session = try BrowserSession(port: port, form: "trip")
            return (
                try session.post("trip", [("_q.to", "ar"), ("_search", "to"), ("note", "window seat")]),
                try session.post("trip", [("_q.to", "pluto"), ("_search", "to")]),
                try session.post("trip", [("_q.to", "Mars"), ("to", "4"), ("note", String(repeating: "x", count: 3))])
            )
        }
        #expect(searched.status == 200)
        #expect(!searched.text.contains("fw-summary"))
        #expect(searched.text.contains(#"<option value="3">Earth</option>"#))
        #expect(searched.text.contains(#"<option value="4">Mars</option>"#))
        #expect(searched.text.contains(#"value="window seat""#))
        #expect(none.text.contains("Nothing matches “pluto”"))
        // Valid: a browser is redirected.
        #expect(sent.status == 303)
    }

    /// A source that is late or fails: `503` with `Retry-After`, for the post and for a search, and a
    /// page without script says the list cannot be searched; nothing is accepted unconfirmed.
    @Test(arguments: [(true, false), (false, true)])
    func aLateOrFailingSourceIs503(late: Bool, fails: Bool) async throws {
        let source = Self.source(delay: late ? .seconds(1) : .zero, fails: fails, deadline: .milliseconds(300))
        let (post, search, page) = try await Self.run(source) { port in
            let session = try BrowserSession(port: port, form: "trip")
            return (
                try postJSON(port, "trip", #"{"to":"4"}"#), try request(port, "/forms/trip/options/to?q=ar"),
                try session.post("trip", [("_q.to", "ar"), ("_search", "to")])
            )
        }
        #expect(post.status == 503)
        #expect(post.header("Retry-After") == "5")
        #expect(post.text.contains(#""code":"optionsUnavailable""#))
        #expect(search.status == 503 && search.text.contains(#""code":"optionsUnavailable""#))
        #expect(page.status == 200 && page.text.contains("The list cannot be searched just now"))
    }

    @Test func anUnregisteredOrTwiceRegisteredSourceStopsTheStart() async throws {
        await #expect {
            try await Self.run(nil) { _ in () }
        } throws: { error in
            "\(error)".contains(
                "form 'trip', sections[0].rows[0]: takes its options from 'planets', which is not registered in Swift (FormHooks.optionSource)"
            )
        }
        var hooks = FormHooks()
        hooks.optionSource(Self.source())
        hooks.optionSource(Self.source())
        await #expect {
            try await CustomRowTypeTests.withForms(["trip.yaml": Self.descriptor]) { folder in
                try await withFormApp(hooks: hooks, forms: folder) { _, _ in () }
            }
        } throws: { error in
            "\(error)".contains("the option source 'planets' is registered twice")
        }
    }

    @Test(arguments: [
        (
            "{tag: a, type: multipleSelector, optionsFrom: planets}",
            "fit a single selector (selectorPush), not a multipleSelector row"
        ),
        (
            "{tag: a, type: selectorPush, optionsFrom: planets, options: [x]}",
            "from its list or from 'planets', not both"
        ),
    ])
    func optionsFromOnARowThatCannotSearchIsALoadProblem(row: String, expected: String) throws {
        let text = "sections: [{rows: [\(row)]}]"
        let form = try FormLoader().load(text, file: "f.yaml", defaultID: "f").get()
        #expect(throws: LoadProblems.self) { try FormCompiler().compile(form, file: "f.yaml") }
        do {
            _ = try FormCompiler().compile(form, file: "f.yaml")
        } catch {
            #expect(error.problems.contains { $0.message.contains(expected) }, "\(error.problems)")
        }
    }
}
