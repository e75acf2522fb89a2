/// What an application's own row type adds to the kind of value it holds: XLForm's and Eureka's
/// custom rows. Made by `RowType.custom`; the engine, the pages and the checks read it.
public struct CustomRowBehaviour: Sendable {
    /// Reads the texts posted under the row's name (one per field a browser sent, or a JSON value's
    /// text) into the row's value; nil when nothing was entered. Nil itself: the kind's own decoder.
    public let decode: (@Sendable ([String]) throws(CustomRowError) -> FormValue?)?
    /// A check of every non-empty value of a visible, enabled row: the message when it fails.
    public let check: (@Sendable (FormValue) -> String?)?
    /// The options of a row of the type whose descriptor gives none (a rating's stars).
    public let options: [Option]
    /// Attributes written on the control, each `data-` and the name, for the type's script to read.
    public let data: [(name: String, value: String)]
    /// The script a page with a row of the type loads, a path under the public folder (`rating.js`).
    public let script: String?

    /// Whether `name` can follow `data-` in an attribute a page writes: lower-case ASCII letters, digits
    /// and `-`. Anything else could close the attribute or the tag it is written in.
    public static func isDataName(_ name: String) -> Bool {
        !name.isEmpty
            && name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }
}

/// Why a custom row type's decoder refused what was sent: the message the row shows.
public struct CustomRowError: Error, Sendable, Hashable {
    /// What was wrong, as the person who typed it should read it.
    public let message: String

    /// A refusal saying `message`.
    public init(_ message: String) { self.message = message }
}

extension RowType {
    /// A row type of an application's own, which descriptors name like any other.
    ///
    /// ```swift
    /// let rating = RowType.custom(
    ///     "rating", holds: .integer, control: .segmented,
    ///     options: (1...5).map { Option(String($0), title: "\($0) of 5") },
    ///     script: "rating.js")
    /// ```
    ///
    /// - Parameters:
    ///   - name: the descriptor's `type`: letters, digits, `-` and `_`, starting with a letter.
    ///   - kind: the value it holds, which decides the payload's shape and the validators it takes.
    ///   - control: the control a page shows; the page writes it as it writes a built-in type's.
    ///   - decode: reads the posted texts into a value, or throws the row's message; nil: the kind's.
    ///   - check: checks a value, returning the message when it fails.
    ///   - options: the options of a row whose descriptor gives none.
    ///   - data: attributes for the type's script, written `data-NAME` on the control, escaped.
    ///   - script: a script under the public folder, loaded by pages with a row of the type.
    public static func custom(
        _ name: String, holds kind: ValueKind, control: RowControl,
        decode: (@Sendable ([String]) throws(CustomRowError) -> FormValue?)? = nil,
        check: (@Sendable (FormValue) -> String?)? = nil, options: [Option] = [],
        data: [(name: String, value: String)] = [], script: String? = nil
    ) -> RowType {
        RowType(
            name, kind, control,
            custom: CustomRowBehaviour(decode: decode, check: check, options: options, data: data, script: script))
    }
}
