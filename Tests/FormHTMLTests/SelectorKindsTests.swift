import FormModel
import Foundation
import Testing

@testable import FormHTML

/// Each selector kind is drawn as what it means on the web, a step counter has − and + buttons, and a
/// required row is marked unless the form turns the marker off.
@Suite struct SelectorKindsTests {
    static func row(_ type: RowType, _ tag: String, options: Int) -> Row {
        var row = Row(type, tag: tag, title: tag.capitalized)
        row.options = (1...options).map { Option("o\($0)") }
        return row
    }

    /// Action sheets and alert views (a few choices, all in sight) are radio buttons listed one under the
    /// other; a segmented control's are drawn side by side; pushed lists and pickers stay selects.
    @Test func eachSelectorKindHasItsControl() throws {
        let html = try ControlTests.render([
            Self.row(.selectorActionSheet, "sheet", options: 2), Self.row(.selectorAlertView, "alert", options: 2),
            Self.row(.selectorSegmentedControl, "segmented", options: 3), Self.row(.selectorPush, "push", options: 3),
            Self.row(.selectorPickerViewInline, "inline", options: 3),
        ])
        let groups = html.all("fieldset").filter { $0["class"]?.hasPrefix("fw-choices") == true }
        #expect(groups.map { $0["id"] ?? "" } == ["fw-sheet", "fw-alert", "fw-segmented"])
        #expect(groups.map { $0["class"] ?? "" } == ["fw-choices", "fw-choices", "fw-choices fw-segmented"])
        #expect(html.all("input").filter { $0["name"] == "sheet" }.allSatisfy { $0["type"] == "radio" })
        #expect(html.all("select").map { $0["id"] ?? "" } == ["fw-push", "fw-inline"])
        #expect(html.all("select").map { $0["size"] } == [nil, "4"])
    }

    /// A select with more than fifteen options is marked for the page script's filter, named for its row.
    @Test func aLongSelectIsSearchable() throws {
        let html = try ControlTests.render([
            Self.row(.selectorPush, "short", options: 15), Self.row(.selectorPickerView, "long", options: 16),
        ])
        #expect(html.all("select").map { $0["data-fw-filter"] } == [nil, "Search Long"])
    }

    /// A step counter is a number input with − and + buttons that wait `hidden` for the script, each
    /// named for its row and pointing at its input; disabled with the row.
    @Test func aStepCounterHasItsButtons() throws {
        var guests = Row(.stepCounter, tag: "guests", title: "Guests")
        guests.disabled = .always
        let html = try ControlTests.render([guests])
        #expect(html.all("input").first { $0["id"] == "fw-guests" }?["type"] == "number")
        let buttons = html.all("button").filter { $0["class"] == "fw-step" }
        #expect(buttons.map { $0["aria-label"] ?? "" } == ["Decrease Guests", "Increase Guests"])
        #expect(buttons.map { $0["data-fw-step"] ?? "" } == ["-1", "1"])
        #expect(
            buttons.allSatisfy { $0["hidden"] != nil && $0["disabled"] != nil && $0["aria-controls"] == "fw-guests" })
        #expect(buttons.map(\.text) == ["−", "+"])
    }

    /// The `*` marker is on by default (WCAG 3.3.2: a reader sees what is required before sending);
    /// `addAsteriskToRequiredRowsTitle: false` turns it off, and the control still says `required`.
    @Test func aRequiredRowIsMarkedUnlessTheFormSaysNot() throws {
        var name = Row(.text, tag: "name", title: "Name")
        name.required = .always
        let marked = try ControlTests.render([name])
        #expect(marked.all("span").contains { $0["class"] == "fw-required" && $0.text == "*" })
        let unmarked = try ControlTests.render([name]) { $0.addAsteriskToRequiredRowsTitle = false }
        #expect(!unmarked.all("span").contains { $0["class"] == "fw-required" })
        #expect(unmarked.all("input").first { $0["id"] == "fw-name" }?["required"] != nil)
        let loaded = try FormLoader().load(
            "sections: [{rows: [{tag: a, type: text, required: true}]}]", file: "f.yaml", defaultID: "f"
        ).get()
        #expect(loaded.addAsteriskToRequiredRowsTitle)
    }
}
