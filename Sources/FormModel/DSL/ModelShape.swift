import Foundation

/// The properties of a `Decodable` type, in declaration order, read by decoding it once from a decoder
/// that answers every question with a stand-in value and writes down what was asked: the key, the
/// Swift type, and whether the property is optional (`decodeIfPresent` asks `decodeNil` first).
///
/// This is how `FormDefinition(model:)` infers a form (TLFormView's forms from a model class) without
/// reflection: a synthesized `init(from:)` asks for its properties in the order they are declared.
struct ModelShape {
    /// One property.
    struct Property {
        let key: String
        let type: Any.Type
        let optional: Bool
    }

    /// Why a type cannot become a form.
    struct Unsupported: Error {
        let message: String
    }

    /// The properties of `type`, or why it has none a form can hold.
    static func properties<T: Decodable>(of type: T.Type) throws -> [Property] {
        let recorder = Recorder()
        _ = try T(from: recorder)
        guard !recorder.properties.isEmpty else {
            throw Unsupported(message: "\(T.self) has no stored properties a form can ask for")
        }
        return recorder.properties
    }

    /// A stand-in value of `type` when it is one a row can hold; nil otherwise.
    static func standIn<T>(_ type: T.Type) -> T? {
        if let scalar = scalar(type) { return scalar.standIn as? T }
        switch type {
        case let list as any ModelList.Type: return list.empty as? T
        case let choices as any CaseIterable.Type: return firstCase(choices) as? T
        default: return nil
        }
    }

    /// A Swift type a single row holds: a value to stand in for it while recording, and the row's type.
    struct Scalar: Sendable {
        let type: Any.Type
        let standIn: any Sendable
        let row: RowType
    }

    /// Every such type, the one list both the recording and `FormDefinition(model:)` read.
    static let scalars: [Scalar] = [
        Scalar(type: String.self, standIn: "", row: .text),
        Scalar(type: Bool.self, standIn: false, row: .booleanSwitch),
        Scalar(type: Int.self, standIn: 0, row: .integer), Scalar(type: Int64.self, standIn: Int64(0), row: .integer),
        Scalar(type: Int32.self, standIn: Int32(0), row: .integer),
        Scalar(type: UInt.self, standIn: UInt(0), row: .integer),
        Scalar(type: Double.self, standIn: 0.0, row: .decimal),
        Scalar(type: Float.self, standIn: Float(0), row: .decimal),
        Scalar(type: Decimal.self, standIn: Decimal(0), row: .decimal),
        Scalar(type: Date.self, standIn: Date(timeIntervalSince1970: 0), row: .datetime),
    ]

    /// The entry of `scalars` for `type`, if it is one.
    static func scalar(_ type: Any.Type) -> Scalar? {
        scalars.first { ObjectIdentifier($0.type) == ObjectIdentifier(type) }
    }

    private static func firstCase<C: CaseIterable>(_ type: C.Type) -> C? { C.allCases.first }

    /// The decoder that records: every container it hands out writes into `properties`.
    final class Recorder: Decoder {
        var properties: [Property] = []
        /// Keys `decodeNil` was asked about: the properties decoded with `decodeIfPresent`.
        var optionalKeys: Set<String> = []
        var codingPath: [any CodingKey] = []
        var userInfo: [CodingUserInfoKey: Any] = [:]

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(Keyed<Key>(recorder: self))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            throw Unsupported(message: "a form is made from a struct's properties, not from a list")
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer {
            throw Unsupported(message: "a form is made from a struct's properties, not from a single value")
        }

        func record<T>(_ type: T.Type, key: String) throws -> T {
            guard let value = ModelShape.standIn(type) else {
                throw Unsupported(
                    message: "the property '\(key)' is a \(T.self), which no row holds: use String, Int, Double, "
                        + "Decimal, Bool, Date, a CaseIterable enum of strings, or an array of one of these")
            }
            properties.append(Property(key: key, type: type, optional: optionalKeys.contains(key)))
            return value
        }
    }

    /// The keyed container of `Recorder`: every key is there and holds a stand-in.
    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let recorder: Recorder
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }

        func contains(_ key: Key) -> Bool { true }

        func decodeNil(forKey key: Key) throws -> Bool {
            recorder.optionalKeys.insert(key.stringValue)
            return false
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try recorder.record(type, key: key.stringValue)
        }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type, forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> {
            throw Unsupported(
                message: "the property '\(key.stringValue)' is nested: write its fields in the type itself")
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw Unsupported(message: "the property '\(key.stringValue)' is a list the form cannot read")
        }

        func superDecoder() throws -> any Decoder { recorder }
        func superDecoder(forKey key: Key) throws -> any Decoder { recorder }
    }
}

/// An array a model property may be: what it holds, and an empty one to stand in.
protocol ModelList {
    static var empty: Self { get }
    static var elementType: Any.Type { get }
}

extension Array: ModelList {
    static var empty: [Element] { [] }
    static var elementType: Any.Type { Element.self }
}
