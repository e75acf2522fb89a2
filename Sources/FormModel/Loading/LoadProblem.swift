/// One problem found in a descriptor: where it is and what is wrong, in words a form author can act on.
///
/// `Forms/event.json: sections[1].rows[3].hidden: unknown tag 'alrt' in '$alrt == 1' (line 40, column 21)`
public struct LoadProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file, as it was named to the loader.
    public let file: String
    /// The place inside the file: `sections[1].rows[3].hidden`; empty for the whole file.
    public let path: String
    /// What is wrong.
    public let message: String
    /// The line in the file, from 1, when known.
    public let line: Int?
    /// The column in the file, from 1, when known.
    public let column: Int?

    /// A problem at `path` in `file`.
    public init(file: String, path: String, message: String, line: Int? = nil, column: Int? = nil) {
        self.file = file
        self.path = path
        self.message = message
        self.line = line
        self.column = column
    }

    public var description: String {
        var text = file + ": "
        if !path.isEmpty { text += path + ": " }
        text += message
        if let line { text += " (line \(line)" + (column.map { ", column \($0)" } ?? "") + ")" }
        return text
    }
}

/// Every problem of a load, so one run of `formwright check` shows them all.
public struct LoadProblems: Error, Sendable, CustomStringConvertible {
    /// The problems, in file order.
    public let problems: [LoadProblem]

    /// Wraps problems found together.
    public init(_ problems: [LoadProblem]) { self.problems = problems }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
