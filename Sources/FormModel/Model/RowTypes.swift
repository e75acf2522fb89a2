/// The row types descriptors may name: the built-in ones and those an application registers.
///
/// ```swift
/// var types = RowTypes.builtIn
/// try types.register(rating)
/// let catalog = try FormCatalog(folder: "Forms", loader: FormLoader(rowTypes: types))
/// ```
public struct RowTypes: Sendable {
    private var byName: [String: RowType]
    /// The registered types, in the order they were registered.
    public private(set) var registered: [RowType] = []

    /// The built-in types alone.
    public static let builtIn = RowTypes(
        byName: Dictionary(uniqueKeysWithValues: RowType.builtIns.map { ($0.name, $0) }))

    private init(byName: [String: RowType]) { self.byName = byName }

    /// The type named `name`, if there is one.
    public func named(_ name: String) -> RowType? { byName[name] }

    /// Every name, built-in ones first, for the message that lists them when a descriptor names an
    /// unknown one.
    public var names: [String] { RowType.builtIns.map(\.name) + registered.map(\.name) }

    /// Adds `type`, so that descriptors can name it.
    /// - Throws: `RowTypeRegistrationError` when its name is taken (a built-in type's or another
    ///   registered one's) or is not a word a descriptor can spell.
    public mutating func register(_ type: RowType) throws(RowTypeRegistrationError) {
        let name = type.name
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII,
            name.unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
            })
        else {
            throw RowTypeRegistrationError(
                "the row type name '\(name)' is not a word a descriptor can spell: use ASCII letters, digits, - and _, starting with a letter"
            )
        }
        if RowType.builtIns.contains(where: { $0.name == name }) {
            throw RowTypeRegistrationError("the row type '\(name)' is built in: give yours another name")
        }
        for data in type.custom?.data ?? [] where !CustomRowBehaviour.isDataName(data.name) {
            throw RowTypeRegistrationError(
                "the row type '\(name)' has the data attribute name '\(data.name)': use lower-case ASCII letters, digits and -, as it is written data-\(data.name)"
            )
        }
        if let script = type.custom?.script, !Self.isScriptPath(script) {
            throw RowTypeRegistrationError(
                "the row type '\(name)' names the script '\(script)': give a path under the public folder, such as rating.js (letters, digits, . _ - and /, ending in .js, no ..)"
            )
        }
        guard byName[name] == nil else {
            throw RowTypeRegistrationError(
                "the row type '\(name)' is registered twice: only one can answer to a name; rename one")
        }
        byName[name] = type
        registered.append(type)
    }
}

extension RowTypes {
    /// Whether `path` is a script path under the public folder a page can name as it is.
    static func isScriptPath(_ path: String) -> Bool {
        let allowed = path.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-/".unicodeScalars.contains($0))
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return allowed && path.hasSuffix(".js") && !parts.contains { $0.isEmpty || $0 == "." || $0 == ".." }
    }
}

/// Why a row type could not be registered.
public struct RowTypeRegistrationError: Error, Sendable, CustomStringConvertible {
    /// What was wrong, naming the type.
    public let message: String

    init(_ message: String) { self.message = message }

    public var description: String { message }
}
