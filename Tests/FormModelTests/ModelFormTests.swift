import Foundation
import Testing

@testable import FormModel

/// Forms inferred from `Decodable` Swift types (`FormDefinition(model:)`): rows in declaration order,
/// titles from property names, row types from Swift types, `required` from optionality.
@Suite struct ModelFormTests {
    struct Talk: Codable {
        enum Level: String, Codable, CaseIterable { case beginner, advanced = "deep_dive" }
        enum Track: String, Codable, CaseIterable { case web, server }
        var title: String
        var speaker_name: String
        var startsAt: Date
        var minutes: Int?
        var fee: Decimal?
        var rating: Double
        var recorded: Bool
        var level: Level
        var tracks: [Track]
        var tags: [String]
        var notes: String?
    }

    @Test func aTypeBecomesRowsInDeclarationOrder() throws {
        let form = FormDefinition(model: Talk.self, id: "talk", title: "A talk")
        #expect(form.problems.isEmpty)
        let sections = form.form.sections
        #expect(sections.count == 3)
        let first = sections[0].rows
        #expect(
            first.map { $0.tag ?? "" } == [
                "title", "speaker_name", "startsAt", "minutes", "fee", "rating", "recorded", "level", "tracks",
            ])
        #expect(
            first.map { $0.title ?? "" } == [
                "Title", "Speaker Name", "Starts At", "Minutes", "Fee", "Rating", "Recorded", "Level", "Tracks",
            ])
        #expect(
            first.map(\.type) == [
                .text, .text, .datetime, .integer, .decimal, .decimal, .booleanSwitch, .selectorPush, .multipleSelector,
            ])
        #expect(first.map { $0.required == .always } == [true, true, true, false, false, true, false, true, false])
        #expect(first[7].options == [Option("beginner", title: "Beginner"), Option("deep_dive", title: "Deep Dive")])
        #expect(first[8].options.map(\.value) == ["web", "server"])
        // An array of anything but an enum is a multivalued section; the rows after it, a section of their own.
        #expect(sections[1].multivaluedTag == "tags")
        #expect(sections[1].title == "Tags")
        #expect(sections[1].rowTemplate?.type == .text)
        #expect(sections[1].multivaluedOptions == [.insert, .delete, .reorder])
        #expect(sections[2].rows.map { $0.tag ?? "" } == ["notes"])
        _ = try form.compiled()
    }

    struct Nested: Codable {
        struct Address: Codable { var street: String }
        var name: String
        var address: Address
    }

    struct Listed: Codable {
        struct Item: Codable { var name: String }
        var items: [Item]
    }

    /// A property no row can hold is a problem of the definition, naming the property and its type; the
    /// form does not compile.
    @Test func aTypeNoRowHoldsIsAProblem() throws {
        let nested = FormDefinition(model: Nested.self, id: "n")
        #expect(
            nested.problems.map(\.message) == [
                "the property 'address' is a Address, which no row holds: use String, Int, Double, Decimal, Bool, Date, "
                    + "a CaseIterable enum of strings, or an array of one of these"
            ])
        #expect(throws: LoadProblems.self) { try nested.compiled() }
        let listed = FormDefinition(model: Listed.self, id: "l")
        #expect(listed.problems.map(\.path) == ["Listed.items"])
        #expect(
            listed.problems.first?.message.hasPrefix("the property 'items' is a list of Item, which no row holds")
                == true)
    }

    struct Numbered: Codable {
        enum Size: Int, Codable, CaseIterable { case small = 1, large = 2 }
        var size: Size
    }

    /// An enum whose raw values are not strings could not be read back from its options' values.
    @Test func anEnumOfNumbersIsAProblem() {
        let form = FormDefinition(model: Numbered.self, id: "n")
        #expect(form.problems.map(\.path) == ["Numbered.size"])
        #expect(form.problems.first?.message.contains("CaseIterable with String raw values") == true)
    }

    @Test(arguments: [
        ("user_name", "User Name"), ("userName", "User Name"), ("starts-at", "Starts At"), ("url", "Url"),
        ("address2Line", "Address2 Line"), ("_private", "Private"),
    ])
    func propertyNamesBecomeTitles(name: String, title: String) {
        #expect(FormDefinition.title(of: name) == title)
    }
}
