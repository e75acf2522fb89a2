import FormEngine
import FormModel
import Foundation
import HTTPServer
import Logging

extension FormRoutes {
    /// The longest search a source is asked for; longer text is cut.
    static let longestQuery = 100
    /// The most matches a search answers with.
    static let matchesShown = 20

    /// `GET /forms/{id}/options/{tag}?q=…`: what the row's option source finds for `q`, for the page
    /// script's combobox: `{"options": [{"value", "title"}, …]}`, at most `matchesShown`. `404` for a row
    /// that searches no source; `503` (with `Retry-After`) when the source fails or is late.
    func searchOptions(_ request: Request) -> Response {
        // The source may take up to its deadline: the connection waits suspended, on a worker thread.
        .later { [self] in await Blocking.run { [self] in search(request) } }
    }

    private func search(_ request: Request) -> Response {
        guard let site = sites[request.parameters["id"] ?? ""]?.site,
            let index = site.form.rowIndex[request.parameters["tag"] ?? ""], let source = site.sources[index]
        else {
            return Answers.problem(.notFound, "this form has no searched row by that tag", code: "notFound", json: true)
        }
        let query = String((request.query["q"] ?? "").trimmingCharacters(in: .whitespaces).prefix(Self.longestQuery))
        do {
            let matches = try source.matches(query, limit: Self.matchesShown).prefix(Self.matchesShown)
            var response = Answers.json(
                .ok,
                .object([
                    (
                        "options",
                        .array(matches.map { .object([("value", .string($0.value)), ("title", .string($0.title))]) })
                    )
                ]))
            // The same search gives the same matches for a while: a browser going back and forth need not ask again.
            response.headers["Cache-Control"] = "private, max-age=60"
            return response
        } catch {
            logger.warning("option source failed", metadata: ["form": "\(site.id)", "error": "\(error)"])
            var response = Answers.problem(
                .serviceUnavailable, "the options cannot be searched just now: try again in a moment",
                code: "optionsUnavailable", json: true)
            response.headers["Retry-After"] = "5"
            return response
        }
    }
}
