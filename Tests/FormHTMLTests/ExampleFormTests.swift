import FormHTML
import FormModel
import Foundation
import Testing

/// Every example form in `Forms/`, fresh and with errors.
@Suite struct ExampleFormTests {
    @Test(arguments: Fixtures.formIDs)
    func freshPageIsWellFormed(id: String) throws {
        let page = Fixtures.page(try Fixtures.form(id))
        let html = try MiniHTML(Fixtures.text(page.renderFresh(csrfToken: "token-1")))
        #expect(html.all("form").count == 1)
        #expect(html.all("html").first?["lang"] == page.form.form.locale)
        let token = html.all("input").first { $0["name"] == "_csrf" }
        #expect(token?["value"] == "token-1")
        // The rules first (deferred scripts run in order), then the page script, then the rules JSON.
        #expect(
            html.all("script").map { $0["src"] ?? $0["id"] ?? "" } == [
                "/static/forms-rules.js", "/static/forms.js", "fw-rules",
            ])
    }

    @Test(arguments: Fixtures.formIDs)
    func pageWithErrorsIsWellFormed(id: String) throws {
        let form = try Fixtures.form(id)
        let state = Fixtures.stateWithErrors(form)
        let page = Fixtures.page(form)
        let html = try MiniHTML(Fixtures.text(page.render(state: state)))
        let summary = try #require(html.element(id: "fw-summary"))
        #expect(summary["role"] == "alert")
        #expect(summary["tabindex"] == "-1")
        #expect(html.all("li").count == state.errors.count)
        // "Error: " in the page's texts: the French example form says "Erreur : ".
        #expect(html.all("title").first?.text.hasPrefix(page.texts.errorPrefix) == true)
        #expect(page.texts.errorPrefix == (form.form.locale == "fr" ? "Erreur : " : "Error: "))
    }

    @Test(arguments: Fixtures.formIDs)
    func everyControlHasALabelForItsID(id: String) throws {
        let form = try Fixtures.form(id)
        for bytes in [
            Fixtures.page(form).renderFresh(csrfToken: "t"),
            Fixtures.page(form).render(state: Fixtures.stateWithErrors(form)),
        ] {
            let html = try MiniHTML(Fixtures.text(bytes))
            // The document, then a multivalued section's template item, which becomes part of it when copied.
            for elements in [html.elements.filter { !$0.inTemplate }, html.templateContent] {
                let labelled = Set(elements.filter { $0.name == "label" }.compactMap { $0["for"] })
                let controls = elements.filter {
                    ["input", "select", "textarea", "output"].contains($0.name) && $0["type"] != "hidden"
                        && !($0.name == "output" && $0["for"] != nil)
                }
                #expect(!controls.isEmpty || elements.isEmpty)
                for control in controls {
                    let controlID = try #require(control["id"], "a \(control.name) without id")
                    #expect(labelled.contains(controlID), "no label for \(controlID)")
                }
                for label in labelled { #expect(elements.contains { $0["id"] == label }, "label for missing \(label)") }
            }
            let ids = html.elements.compactMap { $0["id"] }
            #expect(Set(ids).count == ids.count, "duplicate ids")
        }
    }

    @Test(arguments: Fixtures.formIDs)
    func errorsMarkTheirFieldInvalidAndDescribed(id: String) throws {
        let form = try Fixtures.form(id)
        let html = try MiniHTML(Fixtures.text(Fixtures.page(form).render(state: Fixtures.stateWithErrors(form))))
        let links = html.all("a").compactMap { $0["href"] }.filter { $0.hasPrefix("#") }
        #expect(links.count == Fixtures.stateWithErrors(form).errors.count - 1)
        for link in links {
            let field = try #require(html.element(id: String(link.dropFirst())), "summary links to missing \(link)")
            #expect(field["aria-invalid"] == "true")
            let described = try #require(field["aria-describedby"]).split(separator: " ").map(String.init)
            let errorIDs = described.filter { html.element(id: $0)?.attributes["class"] == "fw-error" }
            #expect(errorIDs.count == 1, "\(link) is not described by its error")
            #expect(
                errorIDs.allSatisfy {
                    html.element(id: $0)?.text.contains("wrong") == true
                        || html.element(id: $0)?.text.contains("item") == true
                })
        }
    }

    @Test(arguments: Fixtures.formIDs)
    func freshPageEqualsRenderingTheInitialState(id: String) throws {
        let page = Fixtures.page(try Fixtures.form(id))
        for token in ["abc.123", "\"<&>'", ""] {
            var state = page.initialState
            state.csrfToken = token
            #expect(page.renderFresh(csrfToken: token) == page.render(state: state))
        }
        var state = page.initialState
        state.csrfToken = nil
        #expect(page.renderFresh(csrfToken: nil) == page.render(state: state))
        #expect(!Fixtures.text(page.renderFresh(csrfToken: nil)).contains("_csrf"))
    }

    @Test func hiddenRowsAndSectionsCarryHidden() throws {
        let form = try Fixtures.form("pets")
        let page = Fixtures.page(form)
        var state = page.initialState
        state.rowHidden = state.rowHidden.indices.map { $0 % 2 == 0 }
        state.sectionHidden[2] = true
        let html = try MiniHTML(Fixtures.text(page.render(state: state)))
        for index in form.rows.indices {
            let row = try #require(html.elements.first { $0["data-fw-row"] == String(index) })
            #expect((row["hidden"] != nil) == state.rowHidden[index], "row \(index)")
        }
        let sections = html.elements.filter { $0["data-fw-section"] != nil }
        // The Contact section's one row is hidden, so the section hides with it (EmptySectionTests).
        #expect(state.sectionHidden == [false, false, true])
        #expect(sections.map { $0["hidden"] != nil } == [false, true, true])
    }

    @Test func eventStartsWithSecondAlertHidden() throws {
        let form = try Fixtures.form("event")
        let html = try MiniHTML(Fixtures.text(Fixtures.page(form).renderFresh(csrfToken: nil)))
        let index = try #require(form.rowIndex["second-alert"])
        #expect(html.elements.first { $0["data-fw-row"] == String(index) }?["hidden"] != nil)
        #expect(html.elements.filter { $0["data-fw-row"] != nil && $0["hidden"] != nil }.count == 1)
    }

    @Test func passwordValuesAreNeverEchoed() throws {
        for id in ["inputs", "validations"] {
            let form = try Fixtures.form(id)
            var state = Fixtures.stateWithErrors(form)
            for row in form.rows where row.row.type == .password { state.values[row.index] = ["hunter2-secret"] }
            let text = Fixtures.text(Fixtures.page(form).render(state: state))
            #expect(!text.contains("hunter2-secret"))
            let html = try MiniHTML(text)
            #expect(html.all("input").filter { $0["type"] == "password" }.allSatisfy { $0["value"] == nil })
        }
    }

    @Test func enteredValuesAreShownInsteadOfDefaults() throws {
        let form = try Fixtures.form("event")
        var state = Fixtures.initialState(form)
        let title = try #require(form.rowIndex["title"])
        let repeatRow = try #require(form.rowIndex["repeat"])
        let guests = try #require(form.rowIndex["guests"])
        state.values[title] = ["Lunch"]
        state.values[repeatRow] = ["weekly"]
        state.values[guests] = ["abc"]
        let html = try MiniHTML(Fixtures.text(Fixtures.page(form).render(state: state)))
        #expect(html.element(id: "fw-title")?["value"] == "Lunch")
        #expect(html.element(id: "fw-guests")?["value"] == "abc")
        let selected = html.all("option").filter { $0["selected"] != nil }.map { $0["value"] }
        // repeat, alert, second-alert: only the entered one changed.
        #expect(selected == ["weekly", "never", "never"])
    }

    @Test func rulesCarryTheCompiledPredicates() throws {
        let form = try Fixtures.form("event")
        let html = try MiniHTML(Fixtures.text(Fixtures.page(form).renderFresh(csrfToken: nil)))
        let script = try #require(html.element(id: "fw-rules"))
        #expect(script["type"] == "application/json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(script.text.utf8)) as? [String: Any])
        let rows = try #require(json["rows"] as? [[String: Any]])
        #expect(rows.count == form.rows.count)
        let secondAlert = try #require(rows.first { $0["name"] as? String == "second-alert" })
        let hidden = try #require(secondAlert["hidden"] as? [String: Any])
        let ast = try #require(hidden["ast"] as? [String: Any])
        #expect((ast["vars"] as? [[String: Any]])?.first?["name"] as? String == "alert")
        let reads = try #require(hidden["reads"] as? [[Any]])
        #expect(reads.first?.first as? String == "rowValue")
        #expect(reads.first?.last as? Int == form.rowIndex["alert"])
        #expect(rows.filter { $0["hidden"] != nil }.count == 1)
        #expect((json["order"] as? [Any])?.count == form.order.count)
    }

    /// A password's spaces are a value, any other row's blank text none: the script must know which is which.
    @Test func rulesMarkPasswordsAsKeepingBlankText() throws {
        let html = try MiniHTML(
            Fixtures.text(Fixtures.page(try Fixtures.form("validations")).renderFresh(csrfToken: nil)))
        let script = try #require(html.element(id: "fw-rules"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(script.text.utf8)) as? [String: Any])
        let rows = try #require(json["rows"] as? [[String: Any]])
        let keeping = rows.filter { $0["keepsBlank"] as? Bool == true }.compactMap { $0["name"] as? String }
        #expect(keeping == ["password", "confirm"])
    }

    @Test func freshEventPageIsSmall() throws {
        let page = Fixtures.page(try Fixtures.form("event"))
        #expect(page.freshByteCount == page.renderFresh(csrfToken: "").count)
        #expect(page.freshByteCount < 16_384)
    }
}
