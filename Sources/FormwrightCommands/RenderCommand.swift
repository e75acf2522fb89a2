import ArgumentParser
import FormEngine
import FormModel
import FormServer
import Foundation

/// `formwright render FORM_FILE`: the page `serve` would send for a form, on standard output.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Print the HTML page of a form file, fresh or answering a submission.",
        discussion: """
            Prints the page a browser gets from 'serve' for the form, built by the same code, without \
            the CSRF token field (a preview is not a live form). With --submission, reads one JSON object \
            of tag → value on standard input, as 'evaluate' does, and prints the page a browser post of \
            those values gets back: values kept, errors inline and in the summary (exit 1); a valid \
            submission prints nothing and names where the browser would be redirected (exit 0). \
            Exits 2 when the form or the input cannot be read.
            """
    )

    @Argument(help: "A form descriptor file (.json, .yaml).")
    var formFile: String

    @ArgumentParser.Option(
        help: "The texts' language: en, zh-Hans, or a locale the form gives messages for. (default: the form's locale)")
    var locale: String?

    @Flag(help: "Render the answer to a submission read from standard input.")
    var submission = false

    func run() throws {
        let preview: FormPreview
        do {
            let form = try FormLoader(rowTypes: FormwrightCommandLine.hooks(formsFolder: nil).rowTypes).loadFile(
                formFile
            ).get()
            preview = try FormPreview(
                form: try FormCompiler().compile(form, file: formFile),
                hooks: FormwrightCommandLine.hooks(formsFolder: nil))
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            throw ExitCode(2)
        }
        guard submission else {
            FileHandle.standardOutput.write(Data(preview.freshPage(locale: locale)))
            return
        }
        let fields: SubmittedFields
        do {
            fields = try JSONBody.parse(Array(FileHandle.standardInput.readDataToEndOfFile()))
        } catch {
            FileHandle.standardError.write(Data("stdin: \(error)\n".utf8))
            throw ExitCode(2)
        }
        switch preview.answer(to: fields, locale: locale) {
        case .invalid(let page):
            FileHandle.standardOutput.write(Data(page))
            throw ExitCode(1)
        case .valid(let redirect):
            FileHandle.standardError.write(Data("valid: a browser would be redirected to \(redirect)\n".utf8))
        }
    }
}
