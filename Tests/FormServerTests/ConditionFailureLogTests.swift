import FormModel
import Foundation
import HTTPTestClient
import Testing

@testable import FormServer

/// A condition that cannot be evaluated counts as false and no answer says so: the server logs it,
/// once, for the form's author, and `check` warns of those that fail on a form's defaults.
@Suite struct ConditionFailureLogTests {
    /// `note` is hidden by a key path that fails while `country` is empty (as it is by default);
    /// `country`'s validator asks a string for a key it does not have.
    static func hooks() -> FormHooks {
        var hooks = exampleHooks()
        hooks.serve(
            FormDefinition("where", title: "Where") {
                SectionDefinition {
                    RowDefinition(.text, "country", title: "Country")
                        .validate(.predicate("$country.population > 1"), message: "Too small")
                        .validate(.predicate("$country.area > 1"), message: "Too narrow")
                    RowDefinition(.text, "note", title: "Note").hidden("$country.length > 20")
                }
            })
        return hooks
    }

    @Test func eachFailingConditionIsLoggedOnceWithItsPlaceAndWhy() async throws {
        let log = try LineLogHandlerTests.PipeLog()
        let (atStart, afterPosts, statuses) = try await withFormApp(
            hooks: Self.hooks(), logger: log.logger("formwright")
        ) { _, port in
            let atStart = log.read()
            var statuses: [Int] = []
            // The hiding condition fails again (already logged); the validator's fails twice.
            for body in [#"{"note":"a"}"#, #"{"country":"France"}"#, #"{"country":"Peru"}"#] {
                statuses.append(try postJSON(port, "where", body).status)
            }
            return (atStart, log.read(), statuses)
        }
        #expect(statuses == [200, 422, 422])  // a failing validator predicate refuses the value
        let failures = { (lines: [String]) in lines.filter { $0.contains("a condition could not be evaluated") } }
        // At start, on the form's defaults: the hiding condition, with where it is and why.
        #expect(failures(atStart).count == 1)
        let hiding = try #require(failures(atStart).first)
        #expect(hiding.contains(" warning "))
        #expect(hiding.contains("form=where"))
        #expect(hiding.contains("place=row 'note' (hidden)"))
        #expect(hiding.contains("condition=$country.length > 20"))
        #expect(hiding.contains("error=key 'length' applied to null"))
        // Later, each of the row's two validators', once for two submissions.
        #expect(failures(afterPosts).count == 2, "\(failures(afterPosts))")
        #expect(failures(afterPosts).allSatisfy { $0.contains("place=row 'country' (predicate validator)") })
        #expect(failures(afterPosts).contains { $0.contains("condition=$country.population > 1") })
        #expect(failures(afterPosts).contains { $0.contains("condition=$country.area > 1") })
    }

    @Test func checkWarnsOfConditionsThatFailOnTheDefaults() throws {
        let forms = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Forms").path
        let catalog = try FormCatalog(folder: forms).adding(Self.hooks().servedDefinitions)
        // The example forms' conditions all evaluate on their defaults: only the one made to fail warns.
        let warnings = FormServerApp.conditionWarnings(in: catalog)
        #expect(warnings.count == 1)
        #expect(
            warnings.first?.hasPrefix(
                "form 'where', row 'note' (hidden): the condition `$country.length > 20` cannot be evaluated on the form's defaults"
            ) == true)
    }
}
