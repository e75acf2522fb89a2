import FormModel
import Foundation

/// The world's cities of 100,000 people or more (`Data/cities.tsv`, from GeoNames), as an option source
/// the `feedback` form's city row searches (`optionsFrom: cities`): thousands of options that no page
/// could list, found as the reader types. A real application would ask its database or a service.
enum ExampleCities {
    struct City: Sendable {
        let id: String
        let title: String
        /// The name folded for search: lower-case, without accents.
        let folded: String
    }

    /// The cities, most populous first, read once from the file beside this source.
    static let all: [City] = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Data/cities.tsv")
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard !line.hasPrefix("#"), columns.count >= 3 else { return nil }
            let name = String(columns[1])
            return City(id: String(columns[0]), title: "\(name), \(columns[2])", folded: fold(name))
        }
    }()

    private static let byID = Dictionary(all.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })

    /// The source: cities whose name starts with the query come first, then those that hold it, each
    /// group most populous first; a value is a city's GeoNames id.
    static let source = OptionSource(
        "cities",
        search: { query, limit in
            let wanted = fold(query)
            guard !wanted.isEmpty else { return all.prefix(limit).map(option) }
            let starting = all.lazy.filter { $0.folded.hasPrefix(wanted) }.prefix(limit)
            let holding = all.lazy.filter { !$0.folded.hasPrefix(wanted) && $0.folded.contains(wanted) }
            return Array((Array(starting) + holding.prefix(limit - starting.count)).map(option))
        },
        lookup: { value in byID[value].map(option) })

    private static func option(_ city: City) -> Option { Option(city.id, title: city.title) }

    private static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
