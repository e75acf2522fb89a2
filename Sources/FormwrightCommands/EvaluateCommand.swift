import ArgumentParser
import FormEngine
import FormModel
import FormServer
import Foundation

/// `formwright evaluate FORM_FILE`: the server's verdict on a JSON submission read from stdin, with
/// every condition's decision, so a form author sees why a row was hidden or an error reported.
struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Judge a JSON submission (stdin) against a form file and explain the verdict.",
        discussion: """
            Reads one JSON object of tag → value on standard input (multivalued sections as arrays under \
            their multivaluedTag) and prints the verdict as JSON: valid, errors, httpParameters, formValues, \
            and for every row and section whether it is hidden, disabled and required and which condition \
            decided it. --record judges it as an edit of a stored record (the httpParameters of an \
            earlier submission): disabled rows keep the record's values, and keys left out keep theirs. \
            Exits 0 when the submission is valid, 1 when it is not, 2 when the form, the record or the \
            input cannot be read. The same JSON answers POST /forms/{id}/explain (serve --explain).
            """
    )

    @Argument(help: "A form descriptor file (.json, .yaml).")
    var formFile: String

    @ArgumentParser.Option(
        help:
            "The language of messages: en, zh-Hans, or a locale the form gives messages for. (default: the form's locale)"
    )
    var locale: String?

    @ArgumentParser.Option(help: "A stored record being edited: a JSON file in the httpParameters shape.")
    var record: String?

    func run() throws {
        let compiled: CompiledForm
        switch Self.compile(formFile) {
        case .success(let form): compiled = form
        case .failure(let problems):
            FileHandle.standardError.write(Data((problems.description + "\n").utf8))
            throw ExitCode(2)
        }
        let input = FileHandle.standardInput.readDataToEndOfFile()
        let fields: SubmittedFields
        do {
            fields = try JSONBody.parse(Array(input))
        } catch {
            FileHandle.standardError.write(Data("stdin: \(error)\n".utf8))
            throw ExitCode(2)
        }
        let hooks = FormwrightCommandLine.hooks(formsFolder: nil)
        let engine = FormEngine(form: compiled, customValidators: hooks.validators, optionSources: hooks.optionSources)
        let stored = try record.map(engine.storedRecord(file:))
        let language = MessageLocale.choose(
            formLocale: compiled.form.locale, acceptLanguage: locale, available: engine.locales)
        let verdict = engine.evaluate(fields, stored: stored, locale: language, explain: true)
        FileHandle.standardOutput.write(Data(verdict.explanationJSON.bytes + [0x0A]))
        if !verdict.isValid { throw ExitCode(1) }
    }

    private static func compile(_ file: String) -> Result<CompiledForm, LoadProblems> {
        FormLoader(rowTypes: FormwrightCommandLine.hooks(formsFolder: nil).rowTypes).loadFile(file).flatMap { form in
            Result { () throws(LoadProblems) in try FormCompiler().compile(form, file: file) }
        }
    }
}

extension FormEngine {
    /// The stored record in `file`, decoded for this form; exits 2 naming what does not fit.
    fileprivate func storedRecord(file: String) throws -> StoredValues {
        guard let bytes = FileManager.default.contents(atPath: file) else {
            FileHandle.standardError.write(Data("\(file): cannot be read\n".utf8))
            throw ExitCode(2)
        }
        do {
            return try stored(json: Array(bytes))
        } catch {
            FileHandle.standardError.write(Data("\(file): \(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}
