import FormModel
import Foundation
import HTTPTestClient
import Testing

@testable import FormServer

/// Row types an application registers in Swift, named by descriptors like built-in ones: decoded and
/// checked by their own closures, drawn with their own attributes and script, and refused at start
/// when registered twice or named without being registered.
@Suite struct CustomRowTypeTests {
    /// A grade from A to E, held as text: its decoder upper-cases what was typed and refuses anything
    /// else, naming the row's problem; its check refuses E; its script reads `data-grade-scale`.
    static let grade = RowType.custom(
        "grade", holds: .text, control: .textInput,
        decode: { texts throws(CustomRowError) in
            let grade = texts.joined().trimmingCharacters(in: .whitespaces).uppercased()
            guard grade.count == 1, "ABCDE".contains(grade) else {
                throw CustomRowError("A grade is a letter from A to E")
            }
            return .text(grade)
        },
        check: { $0 == .text("E") ? "E is not a passing grade" : nil },
        data: [("grade-scale", "A–E \"strict\" <b>")], script: "grade.js")

    /// A level of 1 to 3 chosen by radio buttons: the type gives its own options.
    static let level = RowType.custom(
        "level", holds: .integer, control: .radios, options: [Option("1", title: "Low"), Option("2"), Option("3")])

    static let descriptor = """
        id: exam
        sections:
          - rows:
              - { tag: grade, type: grade, title: Grade, required: true }
              - { tag: level, type: level, title: Level }
              - { tag: note, type: text, title: Note, hidden: "$grade != 'A'" }
        """

    /// A folder holding `files` (name → text), removed when `body` returns.
    static func withForms<T>(_ files: [String: String], _ body: (String) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fw-custom-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, text) in files {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return try await body(folder.path)
    }

    static func hooks() -> FormHooks {
        var hooks = FormHooks()
        hooks.rowType(grade)
        hooks.rowType(level)
        return hooks
    }

    @Test func aDescriptorNamesARegisteredTypeAndItsClosuresJudge() async throws {
        let answers = try await Self.withForms(["exam.yaml": Self.descriptor]) { folder in
            try await withFormApp(hooks: Self.hooks(), forms: folder) { _, port in
                [
                    try postJSON(port, "exam", #"{"grade":" a ","level":2,"note":"top"}"#),
                    try postJSON(port, "exam", #"{"grade":"F"}"#),
                    try postJSON(port, "exam", #"{"grade":"e","level":4}"#),
                    try postJSON(port, "exam", #"{"grade":"b\u0007"}"#),
                    try postJSON(port, "exam", #"{"grade":"   "}"#),
                    try postJSON(port, "exam", #"{"grade":{"x":1}}"#),
                ]
            }
        }
        #expect(answers[0].status == 200)
        #expect(answers[0].text.contains(#""httpParameters":{"grade":"A","level":2,"note":"top"}"#))
        #expect(answers[1].status == 422)
        #expect(
            answers[1].text.contains(
                #"{"tag":"grade","message":"A grade is a letter from A to E","code":"custom.grade"}"#))
        // The type's check runs on what its decoder made; a level outside its own options is refused.
        #expect(answers[2].text.contains(#""message":"E is not a passing grade","code":"custom.grade""#))
        #expect(answers[2].text.contains(#""tag":"level""#))
        // Control characters never reach the decoder; blank is no value, so `required` answers.
        #expect(answers[3].text.contains(#""code":"controlCharacters""#))
        #expect(answers[4].text.contains(#""code":"required""#))
        #expect(answers[5].text.contains(#""code":"wrongType""#))
    }

    /// The page writes the type's control with its data attributes escaped and loads its script once;
    /// a browser's post is judged by the same closures, and the refused value comes back in the page.
    @Test func thePageCarriesTheTypesAttributesAndScript() async throws {
        let (page, refused) = try await Self.withForms(["exam.yaml": Self.descriptor]) { folder in
            try await withFormApp(hooks: Self.hooks(), forms: folder) { _, port in
                let session = try BrowserSession(port: port, form: "exam")
                return (try request(port, "/forms/exam").text, try session.post("exam", [("grade", "Z")]))
            }
        }
        #expect(page.contains(#"data-grade-scale="A–E &quot;strict&quot; &lt;b&gt;""#))
        #expect(!page.contains("<b>"))
        #expect(page.components(separatedBy: #"<script src="/static/grade.js" defer></script>"#).count == 2)
        #expect(page.contains(#"<input type="radio" id="fw-level-0" name="level" value="1""#))
        #expect(page.contains(">Low</label>"))
        #expect(refused.status == 422)
        #expect(refused.text.contains("A grade is a letter from A to E"))
        #expect(refused.text.contains(#"value="Z""#))
    }

    @Test func anUnregisteredTypeStopsTheStartNamingTheFile() async throws {
        await #expect {
            try await Self.withForms(["exam.yaml": Self.descriptor]) { folder in
                try await withFormApp(hooks: FormHooks(), forms: folder) { _, _ in () }
            }
        } throws: { error in
            "\(error)".contains("exam.yaml: sections[0].rows[0].type: unknown row type 'grade'")
        }
    }

    @Test func aNameTakenTwiceOrBadlyFormedStopsTheStart() async throws {
        var hooks = Self.hooks()
        hooks.rowType(Self.grade)
        hooks.rowType(RowType.custom("email", holds: .text, control: .textInput))
        hooks.rowType(RowType.custom("my type", holds: .text, control: .textInput))
        hooks.rowType(RowType.custom("x", holds: .text, control: .textInput, data: [("Bad\"", "v")]))
        hooks.rowType(RowType.custom("y", holds: .text, control: .textInput, script: "../secret.js"))
        #expect(
            hooks.rowTypeProblems == [
                "the row type 'grade' is registered twice: only one can answer to a name; rename one",
                "the row type 'email' is built in: give yours another name",
                "the row type name 'my type' is not a word a descriptor can spell: use ASCII letters, digits, - and _, starting with a letter",
                "the row type 'x' has the data attribute name 'Bad\"': use lower-case ASCII letters, digits and -, as it is written data-Bad\"",
                "the row type 'y' names the script '../secret.js': give a path under the public folder, such as rating.js (letters, digits, . _ - and /, ending in .js, no ..)",
            ])
        let descriptor = Self.descriptor
        await #expect {
            try await Self.withForms(["exam.yaml": descriptor]) { folder in
                try await withFormApp(hooks: hooks, forms: folder) { _, _ in () }
            }
        } throws: { error in
            "\(error)".contains("invalid row types:\nthe row type 'grade' is registered twice")
        }
    }
}
