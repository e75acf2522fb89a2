import Foundation

/// Reads form descriptors from `*.json`, `*.yaml` and `*.yml` files.
///
/// ```swift
/// let forms = try FormLoader().loadFolder("Forms")   // throws LoadProblems listing every problem
/// ```
public struct FormLoader: Sendable {
    /// The largest descriptor file read; a larger one is refused before it is parsed.
    public var maxFileSize = 4 << 20
    /// The most rows a form may have.
    public var maxRows = 5_000
    /// The row types descriptors may name.
    public var rowTypes: RowTypes

    /// A loader with the default limits, reading `rowTypes` (the built-in ones unless given).
    public init(rowTypes: RowTypes = .builtIn) { self.rowTypes = rowTypes }

    /// The extensions read as descriptors.
    public static let extensions: Set<String> = ["json", "yaml", "yml"]

    /// The descriptor files of `folder` (not recursive), sorted by name.
    public func descriptorFiles(in folder: String) throws(LoadProblems) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            throw LoadProblems([LoadProblem(file: folder, path: "", message: "the forms folder cannot be read")])
        }
        // Hidden files are skipped, as the static files are: an editor's or a Mac's (`._event.json`,
        // AppleDouble) is no form, and reading it as one would stop the server.
        return names.sorted().filter {
            !$0.hasPrefix(".") && Self.extensions.contains(($0 as NSString).pathExtension.lowercased())
        }
        .map { (folder as NSString).appendingPathComponent($0) }
    }

    /// Loads one file; its form id defaults to the file name without its extension.
    public func loadFile(_ path: String) -> Result<Form, LoadProblems> {
        let fail = { (message: String) in
            Result<Form, LoadProblems>.failure(LoadProblems([LoadProblem(file: path, path: "", message: message)]))
        }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = attributes[.size] as? NSNumber
        else { return fail("the file cannot be read") }
        guard size.intValue <= maxFileSize else {
            return fail("the file is \(size.intValue) bytes; descriptors are limited to \(maxFileSize) bytes")
        }
        guard let data = FileManager.default.contents(atPath: path) else { return fail("the file cannot be read") }
        guard let text = String(data: data, encoding: .utf8) else { return fail("the file is not UTF-8 text") }
        let defaultID = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return load(text, file: path, defaultID: defaultID)
    }

    /// Loads a descriptor from text (JSON or YAML), naming `file` in problems.
    public func load(_ text: String, file: String, defaultID: String) -> Result<Form, LoadProblems> {
        let log = ProblemLog(file: file)
        if (file as NSString).pathExtension.lowercased() == "json" {
            for problem in JSONStrictness.problems(in: text) {
                log.add("", problem.message, line: problem.line, column: problem.column)
            }
            if !log.problems.isEmpty { return .failure(LoadProblems(log.problems)) }
        }
        let tree: DescriptorNode
        do {
            tree = try DescriptorNode.parse(text)
        } catch {
            log.add(
                "", error.message, line: error.position.map { $0.line + 1 },
                column: error.position.map { $0.column + 1 })
            return .failure(LoadProblems(log.problems))
        }
        let form = DescriptorDecoder(log: log, rowTypes: rowTypes).form(tree, defaultID: defaultID)
        if let form {
            let rowCount = form.sections.reduce(0) { $0 + $1.rows.count }
            if rowCount > maxRows {
                log.add("sections", "the form has \(rowCount) rows; forms are limited to \(maxRows)")
            }
        }
        guard let form else { return .failure(LoadProblems(log.problems)) }
        guard log.problems.isEmpty else {
            // Report the whole-form problems (tags, conditions, cycles) in the same run.
            var problems = log.problems
            if case .failure(let more) = Result(catching: { () throws(LoadProblems) in
                try FormCompiler().compile(form, file: file)
            }) {
                // The compiler repeats the settings checks the loader already made while reading.
                let seen = Set(problems.map { "\($0.path)\u{0}\($0.message)" })
                problems += more.problems.filter { !seen.contains("\($0.path)\u{0}\($0.message)") }
            }
            return .failure(LoadProblems(problems))
        }
        return .success(form)
    }
}
