import FormHTML
import FormModel
import Testing

/// A group of check boxes cannot carry `required` (on a check box it means "tick this one"), and
/// `aria-required` is not allowed on role group: its legend says "required" in words, for screen readers.
@Suite struct RequiredGroupTests {
    static func toppings(required: Condition, asterisks: Bool = true, locale: String = "en") throws -> MiniHTML {
        var toppings = Row(.multipleSelector, tag: "toppings", title: "Toppings")
        toppings.options = [Option("x"), Option("y")]
        toppings.required = required
        return try ControlTests.render([Row(.booleanSwitch, tag: "has", title: "Has"), toppings]) {
            $0.addAsteriskToRequiredRowsTitle = asterisks
            $0.locale = locale
        }
    }

    /// The legend's text as a screen reader gets it: the title, then what is not hidden from it.
    static func spokenText(_ html: MiniHTML) -> [(text: String, hidden: Bool)] {
        html.elements.filter { $0["class"] == "fw-visually-hidden fw-required-text" }.map {
            ($0.text, $0["hidden"] != nil)
        }
    }

    @Test func aRequiredCheckBoxGroupSaysRequiredInItsLegend() throws {
        let html = try Self.toppings(required: .always)
        let legend = try #require(html.all("legend").first { $0.text.hasPrefix("Toppings") })
        #expect(legend.text == "Toppings* required")
        #expect(Self.spokenText(html).map(\.text) == [" required"])
        #expect(Self.spokenText(html).map(\.hidden) == [false])
        // The asterisk stays hidden from screen readers: the words say it once.
        #expect(html.elements.first { $0["class"] == "fw-required" }?["aria-hidden"] == "true")
        // An optional group has no words.
        #expect(Self.spokenText(try Self.toppings(required: .never)).isEmpty)
    }

    @Test func theWordsAreThereWithoutAsterisksToo() throws {
        let html = try Self.toppings(required: .always, asterisks: false)
        #expect(html.elements.filter { $0["class"] == "fw-required" }.isEmpty)
        #expect(Self.spokenText(html).map(\.hidden) == [false])
    }

    /// Present but `hidden` while a `required` predicate is false, so the browser script only toggles it.
    @Test func aConditionallyRequiredGroupStartsWithTheWordsHidden() throws {
        let html = try Self.toppings(required: .predicate("$has == YES"))
        #expect(Self.spokenText(html).map(\.hidden) == [true])
    }

    @Test func theWordsAreInTheFormsLanguage() throws {
        let html = try Self.toppings(required: .always, locale: "zh-CN")
        #expect(Self.spokenText(html).map(\.text) == [" 必填"])
    }

    /// A radio group carries `required` on its radios: only the check boxes' legend gets words.
    @Test func aRequiredRadioGroupNeedsNoWords() throws {
        var kind = Row(.selectorSegmentedControl, tag: "kind", title: "Kind")
        kind.options = [Option("a"), Option("b")]
        kind.required = .always
        var toppings = Row(.multipleSelector, tag: "toppings", title: "Toppings")
        toppings.options = [Option("x"), Option("y")]
        toppings.required = .always
        let html = try ControlTests.render([kind, toppings])
        #expect(html.all("input").filter { $0["name"] == "kind" }.allSatisfy { $0["required"] != nil })
        // The `*` is the required marker, on unless a form turns it off.
        #expect(html.all("legend").map(\.text) == ["S", "Kind*", "Toppings* required"])
    }
}
