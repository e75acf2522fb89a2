import ArgumentParser
import Dispatch
import FormServer
import Foundation

/// `formwright import DIR`: a `serve --submissions` folder of JSON lines loaded into a store.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Load a --submissions folder of JSON lines into a store; run again, it adds only what is new.",
        discussion: """
            Each line becomes a submission under an id made from its time and its content, so a line is \
            kept once however often the folder is imported. Files come from the folder. Values a form \
            says no store keeps (passwords, store: false) are left out: --forms names the forms' folder.
            """
    )

    @OptionGroup var store: StoreOption

    @Argument(help: "The folder 'serve --submissions' wrote.")
    var folder: String

    @ArgumentParser.Option(help: "The folder of form descriptors. (env: FORMWRIGHT_FORMS, default: Forms)")
    var forms: String?

    func run() throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError("no folder \(folder)")
        }
        let formsFolder = forms ?? ProcessInfo.processInfo.environment["FORMWRIGHT_FORMS"] ?? "Forms"
        let catalog = try FormServerApp.servedCatalog(
            folder: formsFolder, hooks: FormwrightCommandLine.hooks(formsFolder: formsFolder))
        let database = try store.open()
        let outcome = try waitFor { try await SubmissionImport.run(folder: folder, forms: catalog, into: database) }
        for problem in outcome.problems { FileHandle.standardError.write(Data("\(problem)\n".utf8)) }
        print("imported \(outcome.imported), already there \(outcome.present), not readable \(outcome.problems.count)")
        if !outcome.problems.isEmpty { throw ExitCode(1) }
    }

    /// `work`'s result, waited for here: the command line's `run` is not async.
    private func waitFor<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { box.result = .success(try await work()) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        return try box.result!.get()
    }
}

/// A result set by a task and read once it signalled: `@unchecked Sendable`, as the semaphore orders
/// the write before the read.
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}
