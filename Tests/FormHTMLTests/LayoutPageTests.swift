import FormModel
import Foundation
import Testing

@testable import FormHTML

/// The page of a form with a `layout`: a line's rows wrapped together (forms.css lays them side by side
/// when there is room), and help behind a "?" that is a disclosure a screen reader names.
@Suite struct LayoutPageTests {
    static func page(_ layout: Layout, rows: [Row]) throws -> String {
        var form = Form(id: "t", title: "T", sections: [Section(title: "S", rows: rows)])
        form.layout = layout
        let compiled = try FormCompiler().compile(form, file: "test")
        let page = FormPage(form: compiled, initialState: Fixtures.initialState(compiled))
        return Fixtures.text(page.render(state: Fixtures.initialState(compiled)))
    }

    static let rows = [
        Row(.date, tag: "starts", title: "Starts"), Row(.date, tag: "ends", title: "Ends"),
        Row(.text, tag: "note", title: "Note"),
    ]

    @Test func aLinesRowsAreWrappedTogether() throws {
        let html = try Self.page(Layout(lines: [["starts", "ends"]]), rows: Self.rows)
        let line = try #require(html.range(of: "<div class=\"fw-line\">\n"))
        let rest = html[line.upperBound...]
        #expect(rest.hasPrefix("<div class=\"fw-row\" id=\"fw-starts-row\""))
        let ends = try #require(rest.range(of: "id=\"fw-ends-row\""))
        let note = try #require(rest.range(of: "id=\"fw-note-row\""))
        // The line closes after `ends`, before `note`: two closing divs (the row's and the line's) in a row.
        #expect(rest[ends.upperBound..<note.lowerBound].contains("</div>\n</div>\n<div class=\"fw-row\""))
        #expect(html.components(separatedBy: "fw-line").count == 2)
        #expect(try MiniHTML(html).all("div").count > 0)  // still well formed
    }

    @Test func helpWaitsBehindAToggleNamedForItsRow() throws {
        var note = Row(.text, tag: "note", title: "Note")
        note.help = "Anything we should know"
        let toggled = try Self.page(Layout(help: .toggle), rows: [note])
        #expect(
            toggled.contains(
                "<details class=\"fw-help-toggle\"><summary><span aria-hidden=\"true\">?</span>"
                    + "<span class=\"fw-visually-hidden\">Help for Note</span></summary>\n"
                    + "<p class=\"fw-help\">Anything we should know</p>\n</details>\n"
                    + "<span hidden id=\"fw-note-help\">Anything we should know</span>\n"))
        // The control stays described by its help, open or closed: by the hidden copy.
        #expect(toggled.contains("aria-describedby=\"fw-note-help\""))
        let shown = try Self.page(Layout(), rows: [note])
        #expect(!shown.contains("<details"))
        #expect(shown.contains("<p class=\"fw-help\" id=\"fw-note-help\">Anything we should know</p>"))
    }
}
