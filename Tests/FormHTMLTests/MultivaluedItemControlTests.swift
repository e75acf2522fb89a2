import FormHTML
import FormModel
import Testing

/// Every item of a multivalued section is one control that always posts one value under the
/// multivalued tag, so the server, which reads the repeated name in order, never loses a position.
@Suite struct MultivaluedItemControlTests {
    /// The reviewer's `mvt` form: segmented and boolean-check items.
    static let templates = """
        id: mvt
        title: Templates
        sections:
          - title: Sizes
            multivaluedTag: sizes
            multivaluedOptions: [insert, delete, reorder]
            rowTemplate: { type: selectorSegmentedControl, title: Size, options: [S, M, L] }
            rows:
              - { type: selectorSegmentedControl, title: Size, value: S, options: [S, M, L] }
              - { type: selectorSegmentedControl, title: Size, value: L, options: [S, M, L] }
          - title: Flags
            multivaluedTag: flags
            multivaluedOptions: [insert, delete, reorder]
            rowTemplate: { type: booleanCheck, title: Flag }
            rows:
              - { type: booleanCheck, title: Flag, value: true }
              - { type: booleanCheck, title: Flag, value: false }
              - { type: booleanCheck, title: Flag, value: true }
          - title: Picks
            multivaluedTag: picks
            rowTemplate: { type: selectorPickerViewInline, title: Pick, options: [p, q] }
            rows:
              - { type: selectorPickerViewInline, title: Pick, options: [p, q] }
        """

    /// The options of the `<select>` with `id`, as (value, selected, text), from the flat element list.
    static func options(of id: String, in html: MiniHTML) -> [(value: String?, selected: Bool, text: String)] {
        guard let start = html.elements.firstIndex(where: { $0["id"] == id && $0.name == "select" }) else { return [] }
        return html.elements[(start + 1)...].prefix { $0.name == "option" }.map {
            ($0["value"], $0["selected"] != nil, $0.text)
        }
    }

    static func page(_ locale: String? = nil) throws -> MiniHTML {
        var text = templates
        if let locale { text = "locale: \(locale)\n" + text }
        return try MiniHTML(
            Fixtures.text(Fixtures.page(try Fixtures.compile(text, id: "mvt")).renderFresh(csrfToken: nil)))
    }

    @Test func segmentedItemsAreOneSelectEachKeepingEveryDefault() throws {
        let html = try Self.page()
        // No radio shares the tag: radios named alike are one group across all items.
        #expect(!html.all("input").contains { $0["name"] == "sizes" })
        let selects = html.all("select").filter { $0["name"] == "sizes" }
        #expect(selects.map { $0["id"] } == ["fw-sizes-0", "fw-sizes-1"])
        #expect(selects.allSatisfy { $0["size"] == nil && $0["multiple"] == nil })
        let chosen = selects.map { select in Self.options(of: select["id"]!, in: html).filter(\.selected).map(\.value) }
        #expect(chosen == [["S"], ["L"]])
        // Each select has its own label, "Size 1", "Size 2".
        #expect(
            html.all("label").filter { $0["for"]?.hasPrefix("fw-sizes-") == true }.map(\.text) == ["Size 1", "Size 2"])
    }

    @Test func booleanItemsAreAYesNoSelectPostingTrueOrFalse() throws {
        let html = try Self.page()
        #expect(!html.all("input").contains { $0["name"] == "flags" })
        let selects = html.all("select").filter { $0["name"] == "flags" }
        #expect(selects.map { $0["id"] } == ["fw-flags-0", "fw-flags-1", "fw-flags-2"])
        for (select, expected) in zip(selects, ["true", "false", "true"]) {
            let options = Self.options(of: select["id"]!, in: html)
            // The blank first choice is no item: what a new item starts as, and how one is taken out again.
            #expect(options.map(\.value) == ["", "false", "true"])
            #expect(options.map(\.text) == ["Choose…", "No", "Yes"])
            #expect(options.filter(\.selected).map(\.value) == [expected])
        }
    }

    @Test func yesAndNoAreInTheFormsLanguage() throws {
        let html = try Self.page("zh-CN")
        #expect(Self.options(of: "fw-flags-0", in: html).map(\.text) == ["请选择…", "否", "是"])
    }

    @Test func anInlinePickerItemIsADropDownThatAlwaysPosts() throws {
        // A list box with nothing selected posts nothing; a drop-down always posts its selected option.
        let html = try Self.page()
        let select = try #require(html.element(id: "fw-picks-0"))
        #expect(select.name == "select" && select["size"] == nil)
        #expect(Self.options(of: "fw-picks-0", in: html).first.map { $0.value == "" && $0.selected } == true)
    }

    @Test func anItemErrorOfASelectorLinksToItsSelect() throws {
        let form = try Fixtures.compile(Self.templates, id: "mvt")
        var state = Fixtures.initialState(form)
        state.errors = [PageError(section: 0, position: 1, message: "Size 2 must be one of the listed choices")]
        let html = try MiniHTML(Fixtures.text(Fixtures.page(form).render(state: state)))
        #expect(html.all("a").compactMap { $0["href"] } == ["#fw-sizes-1"])
        #expect(html.element(id: "fw-sizes-1")?.name == "select")
        #expect(html.element(id: "fw-sizes-1")?["aria-invalid"] == "true")
    }
}
