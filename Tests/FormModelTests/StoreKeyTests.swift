import Testing

@testable import FormModel

/// A row's `store`: whether a store keeps its value.
@Suite struct StoreKeyTests {
    @Test func aRowIsKeptUnlessItSaysStoreFalse() throws {
        let form = try load(
            "sections:\n  - rows:\n      - { tag: name, type: text }\n      - { tag: card, type: text, store: false }\n"
        ).get()
        #expect(form.sections[0].rows.map(\.store) == [true, false])
        let swift = FormDefinition("test") {
            SectionDefinition {
                RowDefinition(.text, "name")
                RowDefinition(.text, "card").store(false)
            }
        }
        #expect(swift.form.sections[0].rows.map(\.store) == [true, false])
    }

    /// `store: hash` (and `storeHashed()`) keeps the row, as a hash.
    @Test func aRowMayBeKeptAsAHash() throws {
        let form = try load("sections:\n  - rows:\n      - { tag: secret, type: password, store: hash }\n").get()
        #expect(form.sections[0].rows.map(\.storeHashed) == [true])
        #expect(form.sections[0].rows.map(\.store) == [true])
        let swift = FormDefinition("test") { SectionDefinition { RowDefinition(.password, "secret").storeHashed() } }
        #expect(swift.form.sections[0].rows.map(\.storeHashed) == [true])
    }

    @Test func aStoreThatIsNoBooleanIsALoadProblem() {
        guard case .failure(let problems) = load("sections:\n  - rows:\n      - { tag: card, type: text, store: no }\n")
        else {
            Issue.record("store: no loaded")
            return
        }
        #expect(problems.problems.contains { $0.path.hasSuffix("store") && $0.message.contains("true, false or hash") })
    }
}
