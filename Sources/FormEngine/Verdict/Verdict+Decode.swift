import Foundation

extension Verdict {
    /// The valid submission as a value of a `Decodable` type, read from `httpParameters`: the reverse
    /// of `FormDefinition(model:)`, whose form this type may have made. Dates are read as the ISO 8601
    /// instants the payload writes; an empty optional row is `nil`.
    ///
    /// ```swift
    /// let event = try verdict.decode(Event.self)
    /// ```
    /// - Throws: `DecodingError` when the payload does not fit the type (a row it lacks, another type).
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(type, from: Data(httpParameters.bytes))
    }
}
