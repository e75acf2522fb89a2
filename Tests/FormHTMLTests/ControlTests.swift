import FormHTML
import FormModel
import Foundation
import Testing

/// Which control each row type becomes, and the attributes it carries.
@Suite struct ControlTests {
    /// Renders `rows` in one section of a form compiled from Swift values.
    static func render(
        _ rows: [Row], configure: (inout Form) -> Void = { _ in }, state: ((inout PageState) -> Void)? = nil
    ) throws -> MiniHTML {
        var form = Form(id: "t", title: "T", sections: [Section(title: "S", rows: rows)])
        configure(&form)
        let compiled = try FormCompiler().compile(form, file: "test")
        let page = FormPage(form: compiled, initialState: Fixtures.initialState(compiled))
        var pageState = Fixtures.initialState(compiled)
        state?(&pageState)
        return try MiniHTML(Fixtures.text(page.render(state: pageState)))
    }

    @Test(
        arguments: [
            (RowType.text, "input", "text", nil), (.name, "input", "text", "name"),
            (.account, "input", "text", "username"),
            (.twitter, "input", "text", nil), (.zipCode, "input", "text", "postal-code"),
            (.email, "input", "email", "email"),
            (.url, "input", "url", "url"), (.phone, "input", "tel", "tel"),
            (.password, "input", "password", "current-password"), (.number, "input", "number", nil),
            (.decimal, "input", "number", nil), (.integer, "input", "number", nil), (.textView, "textarea", nil, nil),
            (.date, "input", "date", nil), (.dateInline, "input", "date", nil), (.time, "input", "time", nil),
            (.timeInline, "input", "time", nil), (.datetime, "input", "datetime-local", nil),
            (.datetimeInline, "input", "datetime-local", nil), (.countDownTimer, "input", "text", "off"),
            (.booleanCheck, "input", "checkbox", nil), (.booleanSwitch, "input", "checkbox", nil),
            (.stepCounter, "input", "number", nil), (.slider, "input", "range", nil), (.upload, "input", "file", nil),
            (.selectorPush, "select", nil, nil), (.selectorPickerView, "select", nil, nil), (.info, "output", nil, nil),
        ] as [(RowType, String, String?, String?)])
    func rowTypeBecomesItsControl(type: RowType, element: String, inputType: String?, autocomplete: String?) throws {
        var row = Row(type, tag: "f", title: "Field")
        if type.needsOptions { row.options = [Option("a"), Option("b")] }
        let html = try Self.render([row])
        let control = try #require(html.element(id: "fw-f"))
        #expect(control.name == element)
        #expect(control["type"] == inputType)
        #expect(control["autocomplete"] == autocomplete)
        if element != "output" { #expect(control["name"] == "f") }
    }

    /// A descriptor's `autocomplete` wins over the one the type implies, on inputs, text areas and selects.
    @Test func aRowsOwnAutocompleteIsWrittenOnItsControl() throws {
        var first = Row(.text, tag: "first", title: "First name")
        first.autocomplete = "Given-Name"
        var email = Row(.email, tag: "email", title: "Email")
        email.autocomplete = "work  email"
        var street = Row(.textView, tag: "street", title: "Street")
        street.autocomplete = "shipping street-address"
        var country = Row(.selectorPush, tag: "country", title: "Country")
        country.options = [Option("fr"), Option("cn")]
        country.autocomplete = "country"
        let html = try Self.render([first, email, street, country, Row(.email, tag: "plain", title: "Plain")])
        #expect(html.element(id: "fw-first")?["autocomplete"] == "given-name")
        #expect(html.element(id: "fw-email")?["autocomplete"] == "work email")
        #expect(html.element(id: "fw-street")?["autocomplete"] == "shipping street-address")
        #expect(html.element(id: "fw-country")?["autocomplete"] == "country")
        #expect(html.element(id: "fw-plain")?["autocomplete"] == "email")  // implied by the type
    }

    @Test func numbersCarryTheirStep() throws {
        var price = Row(.decimal, tag: "price", title: "Price")
        price.min = .decimal(0)
        var half = Row(.number, tag: "half", title: "Half")
        half.step = .decimal(0.5)
        let html = try Self.render([price, half, Row(.integer, tag: "count", title: "Count")])
        #expect(html.element(id: "fw-price")?["step"] == "any")
        #expect(html.element(id: "fw-price")?["min"] == "0")
        #expect(html.element(id: "fw-half")?["step"] == "0.5")
        #expect(html.element(id: "fw-count")?["step"] == "1")
    }

    @Test func switchHasTheSwitchRoleAndShowsItsValue() throws {
        var on = Row(.booleanSwitch, tag: "on", title: "On")
        on.value = .bool(true)
        let html = try Self.render([on, Row(.booleanCheck, tag: "off", title: "Off")])
        #expect(html.element(id: "fw-on")?["role"] == "switch")
        #expect(html.element(id: "fw-on")?["checked"] != nil)
        #expect(html.element(id: "fw-off")?["role"] == nil)
        #expect(html.element(id: "fw-off")?["checked"] == nil)
    }

    @Test func countDownShowsHoursMinutesSecondsWithAPattern() throws {
        var timer = Row(.countDownTimer, tag: "timer", title: "Timer")
        timer.value = .duration(3_725)
        let html = try Self.render([timer])
        let input = try #require(html.element(id: "fw-timer"))
        #expect(input["value"] == "1:02:05")
        #expect(input["inputmode"] == "numeric")
        #expect(input["pattern"] != nil)
        #expect(input["aria-describedby"] == "fw-timer-help")
        #expect(html.element(id: "fw-timer-help")?.text.contains("1:30:00") == true)
    }

    @Test func sliderHasALiveOutput() throws {
        var volume = Row(.slider, tag: "volume", title: "Volume")
        volume.value = .decimal(50)
        let html = try Self.render([volume])
        #expect(html.element(id: "fw-volume-output")?["for"] == "fw-volume")
        #expect(html.element(id: "fw-volume-output")?.text == "50")
    }

    /// HTML's range default (§4.10.5.1.13): the middle of min…max, snapped to the step counted from min
    /// (a tie goes up); min 0, max 100 and step 1 when not given. (A max below the min is refused when
    /// the form is loaded.)
    @Test(
        arguments: [
            (nil, nil, nil, "50"), (0, 10, 1, "5"), (0, 10, 3, "6"), (0, 9, 1, "5"), (0, 9, 2, "4"),
            (1, 2, 0.25, "1.5"), (0, 1, nil, "1"), (-10, 0, 4, "-6"), (0, 1, 0.1, "0.5"),
            (0.1, 0.4, 0.1, "0.3"),
        ] as [(Double?, Double?, Double?, String)])
    func sliderWithoutAValueShowsTheBrowsersDefault(min: Double?, max: Double?, step: Double?, shown: String) throws {
        var level = Row(.slider, tag: "level", title: "Level")
        let decimal = { (number: Double?) in number.map { FormValue.decimal(Decimal(string: "\($0)") ?? 0) } }
        level.min = decimal(min)
        level.max = decimal(max)
        level.step = decimal(step)
        let html = try Self.render([level])
        #expect(html.element(id: "fw-level")?["value"] == nil)
        #expect(html.element(id: "fw-level-output")?.text == shown)
    }

    /// HTML's value sanitization of a range (§4.10.5.1.13): clamped to min…max, then snapped to the
    /// nearest step (a tie goes up) counted from the step base — the `min` attribute, else the `value`
    /// attribute itself. The output shows what the slider holds and posts; the `value` stays as given.
    @Test(
        arguments: [
            (0, 10, 5, "7", "5"), (0, 10, 5, "7.5", "10"), (0, 10, 3, "10", "9"), (0, 10, 4, "11", "8"),
            (nil, nil, nil, "150", "100"), (nil, nil, nil, "-5", "0"), (1, 2, 0.25, "1.3", "1.25"),
            (0, 10, 5, "1e1", "10"), (0, 10, 20, "7", "0"), (nil, nil, 5, "7", "7"), (nil, nil, 5, "103", "98"),
            (nil, 10, 5, "-3", "2"), (nil, 10, 50, "30", "10"), (0, 10, 5, "5", "5"),
        ] as [(Double?, Double?, Double?, String, String)])
    func sliderOutputShowsTheValueTheBrowserHolds(
        min: Double?, max: Double?, step: Double?, value: String, shown: String
    ) throws {
        var level = Row(.slider, tag: "level", title: "Level")
        let decimal = { (number: Double?) in number.map { FormValue.decimal(Decimal(string: "\($0)") ?? 0) } }
        level.min = decimal(min)
        level.max = decimal(max)
        level.step = decimal(step)
        let html = try Self.render([level], state: { $0.values = [0: [value]] })
        #expect(html.element(id: "fw-level")?["type"] == "range")
        #expect(html.element(id: "fw-level")?["value"] == value)
        #expect(html.element(id: "fw-level-output")?.text == shown)
    }

    @Test func aSliderValueThatIsNoNumberIsShownAsTyped() throws {
        var level = Row(.slider, tag: "level", title: "Level")
        level.step = .integer(5)
        let html = try Self.render([level], state: { $0.values = [0: ["abc"]] })
        #expect(html.element(id: "fw-level")?["type"] == "text")
        #expect(html.element(id: "fw-level-output")?.text == "abc")
    }

    @Test func anEmptyTypedValueKeepsItsTypeAndBounds() throws {
        var count = Row(.integer, tag: "count", title: "Count")
        count.min = .integer(1)
        let html = try Self.render(
            [Row(.email, tag: "mail", title: "Mail"), count], state: { $0.values = [0: [""], 1: [""]] })
        #expect(html.element(id: "fw-mail")?["type"] == "email")
        #expect(html.element(id: "fw-count")?["type"] == "number")
        #expect(html.element(id: "fw-count")?["min"] == "1")
    }

    @Test func selectorStartsWithAnEmptyOptionShowingNoValueText() throws {
        var push = Row(.selectorPush, tag: "push", title: "Push")
        push.options = [Option("r", title: "Red")]
        push.noValueDisplayText = "Pick one"
        let html = try Self.render([push])
        let options = html.all("option")
        #expect(options.map { $0["value"] } == ["", "r"])
        #expect(options.first?.text == "Pick one")
        #expect(options.first?["selected"] != nil)
    }

    @Test func requiredInlinePickerWithAValueHasNoEmptyOption() throws {
        var picker = Row(.selectorPickerViewInline, tag: "p", title: "P")
        picker.options = [Option("one"), Option("two"), Option("three")]
        picker.value = .option("two")
        picker.required = .always
        let html = try Self.render([picker])
        #expect(html.element(id: "fw-p")?["size"] == "3")
        #expect(html.all("option").map { $0["value"] } == ["one", "two", "three"])
        #expect(html.all("option").filter { $0["selected"] != nil }.map { $0["value"] } == ["two"])
    }

    @Test func segmentedControlIsARadioGroupInAFieldset() throws {
        var segmented = Row(.selectorSegmentedControl, tag: "seg", title: "Period")
        segmented.options = [Option("day"), Option("week")]
        segmented.value = .option("week")
        let html = try Self.render([segmented])
        #expect(html.element(id: "fw-seg")?.name == "fieldset")
        #expect(html.all("legend").map(\.text).contains("Period"))
        let radios = html.all("input").filter { $0["type"] == "radio" }
        #expect(radios.map { $0["name"] } == ["seg", "seg"])
        #expect(radios.map { $0["checked"] != nil } == [false, true])
    }

    @Test func multipleSelectorIsACheckboxGroupWithoutRequiredBoxes() throws {
        var days = Row(.multipleSelector, tag: "days", title: "Days")
        days.options = [Option("mon"), Option("tue"), Option("wed")]
        days.value = .options(["mon", "wed"])
        days.required = .always
        let html = try Self.render([days])
        let boxes = html.all("input").filter { $0["name"] == "days" }
        #expect(boxes.map { $0["type"] } == ["checkbox", "checkbox", "checkbox"])
        #expect(boxes.map { $0["checked"] != nil } == [true, false, true])
        #expect(boxes.allSatisfy { $0["required"] == nil })
    }

    @Test func requiredRowGetsTheAttributeAndTheMarker() throws {
        var title = Row(.text, tag: "title", title: "Title")
        title.required = .always
        let html = try Self.render([title, Row(.text, tag: "other", title: "Other")]) {
            $0.addAsteriskToRequiredRowsTitle = true
        }
        #expect(html.element(id: "fw-title")?["required"] != nil)
        #expect(html.element(id: "fw-other")?["required"] == nil)
        let markers = html.elements.filter { $0["class"] == "fw-required" }
        #expect(markers.count == 1)
        #expect(markers.first?["aria-hidden"] == "true")
    }

    /// A marker whose `required` predicate is false starts `hidden`, and then needs no `aria-hidden`.
    @Test func conditionallyRequiredRowsMarkerStartsHiddenWithoutAriaHidden() throws {
        var names = Row(.text, tag: "names", title: "Names")
        names.required = .predicate("$has == YES")
        let html = try Self.render([Row(.booleanSwitch, tag: "has", title: "Has"), names]) {
            $0.addAsteriskToRequiredRowsTitle = true
        }
        let markers = html.elements.filter { $0["class"] == "fw-required" }
        #expect(markers.count == 1)
        #expect(markers.first?["hidden"] != nil)
        #expect(markers.first?["aria-hidden"] == nil)
    }

    @Test func helpIsLinkedByDescribedBy() throws {
        var row = Row(.text, tag: "code", title: "Code")
        row.help = "Six letters"
        let html = try Self.render([row])
        #expect(html.element(id: "fw-code")?["aria-describedby"] == "fw-code-help")
        #expect(html.element(id: "fw-code-help")?.text == "Six letters")
    }

    @Test func disabledFormDisablesEveryControlAndHasNoSubmitButton() throws {
        let event = try Fixtures.form("event").form
        var form = event
        form.disabled = true
        let compiled = try FormCompiler().compile(form, file: "event")
        let html = try MiniHTML(Fixtures.text(Fixtures.page(compiled).renderFresh(csrfToken: "t")))
        let controls = html.elements.filter {
            ["input", "select", "textarea"].contains($0.name) && $0["type"] != "hidden"
        }
        #expect(controls.count == compiled.rows.count)
        #expect(controls.allSatisfy { $0["disabled"] != nil })
        #expect(html.all("button").isEmpty)
    }

    @Test func uploadFormsPostMultipart() throws {
        let others = try MiniHTML(Fixtures.text(Fixtures.page(try Fixtures.form("others")).renderFresh(csrfToken: nil)))
        #expect(others.all("form").first?["enctype"] == "multipart/form-data")
        #expect(others.element(id: "fw-photo")?["accept"] == "image/png,image/jpeg")
        let event = try MiniHTML(Fixtures.text(Fixtures.page(try Fixtures.form("event")).renderFresh(csrfToken: nil)))
        #expect(event.all("form").first?["enctype"] == nil)
        #expect(event.all("form").first?["action"] == "/forms/event")
        #expect(event.all("form").first?["novalidate"] != nil)
    }

    @Test func submitButtonUsesTheFormsTitle() throws {
        let html = try MiniHTML(Fixtures.text(Fixtures.page(try Fixtures.form("event")).renderFresh(csrfToken: nil)))
        #expect(html.all("button").map(\.text) == ["Add"])
        let plain = try Self.render([Row(.text, tag: "a", title: "A")])
        #expect(plain.all("button").map(\.text) == ["Submit"])
    }

    @Test func textAreaKeepsALeadingNewline() throws {
        let form = Form(id: "t", sections: [Section(rows: [Row(.textView, tag: "notes", title: "Notes")])])
        let compiled = try FormCompiler().compile(form, file: "test")
        var state = PageState(rowCount: 1, sectionCount: 1)
        state.values[0] = ["\nsecond line"]
        let text = Fixtures.text(FormPage(form: compiled, initialState: state).render(state: state))
        // The parser drops one newline after <textarea> (HTML spec §13.2.6.4.7), so two are written.
        #expect(text.contains(">\n\nsecond line</textarea>"))
    }
}

/// A file the server holds from a refused post: named beside its input (escaped), posted back as
/// `_held.<tag>`, described to screen readers, and answering the row's `required`.
@Suite struct HeldFileTests {
    @Test func aHeldFileIsNamedPostedBackAndAnswersRequired() throws {
        var row = Row(.upload, tag: "cv", title: "CV")
        row.required = .always
        let held = PageState.HeldFile(reference: "abc.def", filename: "<b>cv</b>.pdf", size: 86_000)
        let html = try ControlTests.render([row], state: { $0.heldFiles = [0: held] })
        let input = try #require(html.element(id: "fw-cv"))
        #expect(input["required"] == nil)
        #expect(input["aria-describedby"] == "fw-cv-held")
        let hidden = try #require(html.all("input").first { $0["type"] == "hidden" && $0["name"] == "_held.cv" })
        #expect(hidden["value"] == "abc.def")
        let note = try #require(html.element(id: "fw-cv-held"))
        #expect(
            note.text
                == "<b>cv</b>.pdf (84 KB) is kept and will be sent with the form. Choose another file to replace it.")
        #expect(html.all("b").isEmpty)
        let fresh = try ControlTests.render([row])
        #expect(fresh.element(id: "fw-cv")?["required"] != nil)
        #expect(fresh.element(id: "fw-cv-held") == nil)
    }
}
