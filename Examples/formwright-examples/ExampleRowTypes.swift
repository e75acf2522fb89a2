import FormModel
import Foundation

/// Two row types of the examples' own, registered by `ExampleHooks` so descriptors can name them
/// (`type: rating`, `type: location`) as they name built-in ones. Each works without JavaScript.
enum ExampleRowTypes {
    /// A star rating, 1 to 5: a segmented group of radio buttons titled "1 star" to "5 stars", laid out in a
    /// line by `forms.css` (`data-rating`). It holds an integer, which the payloads carry as a number.
    static let rating = RowType.custom(
        "rating", holds: .integer, control: .segmented,
        check: { value in
            guard case .integer(let stars) = value else { return nil }
            return (1...5).contains(stars) ? nil : "A rating is 1 to 5 stars"
        },
        options: (1...5).map { Option(String($0), title: $0 == 1 ? "1 star" : "\($0) stars") },
        data: [("rating", "stars")])

    /// A place on Earth as "latitude, longitude" (Eureka's LocationRow): a text input anyone can type
    /// into, and with JavaScript a "Use my location" button (`Public/location.js`) that asks the browser's
    /// geolocation. The value is the two numbers joined by a comma, `48.8566,2.3522`; a JSON client may
    /// also send them as a list, `[48.8566, 2.3522]`.
    static let location = RowType.custom(
        "location", holds: .text,
        control: .input(type: "text", autocomplete: nil, inputMode: nil, step: nil),
        decode: { texts throws(CustomRowError) in try coordinates(texts) },
        data: [
            ("location", "Use my location"), ("location-busy", "Finding where you are…"),
            ("location-denied", "Your location is not available: type it instead"),
        ],
        script: "location.js")

    /// `texts` as one `latitude,longitude` text: one text holding both numbers, or two texts.
    static func coordinates(_ texts: [String]) throws(CustomRowError) -> FormValue? {
        let example = "such as 48.8566, 2.3522"
        let parts =
            texts.count == 1
            ? texts[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init) : texts
        guard parts.count == 2 else {
            throw CustomRowError("Enter a latitude and a longitude separated by a comma, \(example)")
        }
        let numbers = parts.map { $0.trimmingCharacters(in: .whitespaces) }
        guard let latitude = Double(numbers[0]), let longitude = Double(numbers[1]),
            numbers.allSatisfy({ $0.allSatisfy { "0123456789.-".contains($0) } })
        else { throw CustomRowError("A location is two numbers, \(example)") }
        guard (-90...90).contains(latitude) else { throw CustomRowError("A latitude is between -90 and 90") }
        guard (-180...180).contains(longitude) else { throw CustomRowError("A longitude is between -180 and 180") }
        return .text("\(numbers[0]),\(numbers[1])")
    }
}
