import ArgumentParser
import FormModel
import FormServer
import FormStore
import Foundation

/// `formwright submissions list|export|delete`: the submissions a store keeps, from the command line.
struct SubmissionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "submissions",
        abstract: "List, export or erase the submissions a store keeps.",
        subcommands: [List.self, Export.self, Delete.self]
    )

    /// Where the submissions are, and which form's.
    struct Place: ParsableArguments {
        @OptionGroup var store: StoreOption

        @ArgumentParser.Option(help: "The form whose submissions these are.")
        var form: String

        func open() throws -> any SubmissionDatabase { try store.open() }
    }

    /// `submissions list`: the newest first, one line each: id, time received.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a form's submissions, newest first.")

        @OptionGroup var place: Place

        @ArgumentParser.Option(help: "The most to list.")
        var limit = 100

        func run() throws {
            for submission in try place.open().submissions(formID: place.form, limit: limit) {
                print("\(submission.id) \(submission.received)")
            }
        }
    }

    /// `submissions export`: every submission of a form, oldest first, as JSON lines or CSV on stdout,
    /// read from the store one at a time.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a form's submissions to standard output, oldest first, as JSON lines or CSV.",
            discussion: """
                CSV has the id and time received, then one column per tagged row in page order headed by \
                its title (a multivalued section's items numbered); a cell a spreadsheet would run as a \
                formula starts with '. CSV needs the form itself: --forms names its folder.
                """
        )

        @OptionGroup var place: Place

        @ArgumentParser.Option(help: "jsonl or csv.")
        var format = "jsonl"

        @ArgumentParser.Option(
            help: "The folder of form descriptors, for CSV's columns. (env: FORMWRIGHT_FORMS, default: Forms)")
        var forms: String?

        func run() throws {
            guard format == "jsonl" || format == "csv" else {
                throw ValidationError("--format must be jsonl or csv, not '\(format)'")
            }
            let store = try place.open()
            var writer = SubmissionExport.jsonLines
            if format == "csv" {
                let folder = forms ?? ProcessInfo.processInfo.environment["FORMWRIGHT_FORMS"] ?? "Forms"
                let catalog = try FormServerApp.servedCatalog(
                    folder: folder, hooks: FormwrightCommandLine.hooks(formsFolder: folder))
                guard let form = catalog.forms[place.form] else {
                    throw ValidationError("no form '\(place.form)' in \(folder)")
                }
                writer = .csv(form)
            }
            let output = FileHandle.standardOutput
            output.write(Data(writer.header.utf8))
            // CSV reads `httpParameters` alone: `formValues` is not fetched.
            try store.forEach(formID: place.form, formValues: format != "csv") {
                output.write(Data(writer.line($0).utf8))
            }
        }
    }

    /// `submissions delete`: erasure of one submission, its files with it.
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Erase a submission, its files with it.")

        @OptionGroup var place: Place

        @Argument(help: "The submission's id.")
        var id: String

        func run() throws {
            guard let submission = SubmissionID(id), try place.open().delete(formID: place.form, id: submission) else {
                FileHandle.standardError.write(Data("no submission \(id) of form '\(place.form)'\n".utf8))
                throw ExitCode(1)
            }
            print("erased \(submission)")
        }
    }
}

/// `--store`, for the commands that read a store: never made, so a mistyped path is an error rather
/// than a new, empty store.
struct StoreOption: ParsableArguments {
    @ArgumentParser.Option(
        help:
            "The store, as 'serve --store' names it: sqlite:PATH or postgres://…. (env: FORMWRIGHT_STORE, else a postgres:// or postgresql:// DATABASE_URL)"
    )
    var store: String?

    /// The store opened; a missing or unusable one exits 2, naming it.
    func open() throws -> any SubmissionDatabase {
        let location = store ?? Serve.storeNamed(by: ProcessInfo.processInfo.environment) ?? ""
        if location.hasPrefix("sqlite:"), !FileManager.default.fileExists(atPath: String(location.dropFirst(7))) {
            FileHandle.standardError.write(Data("no store at \(location.dropFirst(7))\n".utf8))
            throw ExitCode(2)
        }
        do {
            return try StoreLocation.open(location)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}
