/// Collects the problems of one file as its reader walks it, so all of them are reported at once.
final class ProblemLog {
    let file: String
    private(set) var problems: [LoadProblem] = []

    init(file: String) { self.file = file }

    func add(_ path: String, _ message: String, at node: DescriptorNode? = nil) {
        let position = node?.position
        problems.append(
            LoadProblem(
                file: file, path: path, message: message, line: position.map(\.line),
                column: position.map(\.column)))
    }

    func add(_ path: String, _ message: String, line: Int?, column: Int?) {
        problems.append(LoadProblem(file: file, path: path, message: message, line: line, column: column))
    }
}
