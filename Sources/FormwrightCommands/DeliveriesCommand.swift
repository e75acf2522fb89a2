import ArgumentParser
import FormServer
import FormStore
import Foundation

/// `formwright deliveries list|retry`: a form's delivery jobs, from the command line, on the store the
/// servers share.
struct DeliveriesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deliveries",
        abstract: "List a form's delivery jobs, or send one again.",
        subcommands: [List.self, Retry.self]
    )

    /// `deliveries list`: one line a job, newest first: id, state, attempts, when the next is due, where
    /// it goes.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List a form's delivery jobs in a state, newest first: id, state, attempts, due, destination.")

        @OptionGroup var place: SubmissionsCommand.Place

        @ArgumentParser.Option(help: "pending, delivered or failed.")
        var state = "failed"

        @ArgumentParser.Option(help: "The most to list.")
        var limit = 100

        func run() throws {
            guard let state = DeliveryState(rawValue: state) else {
                throw ValidationError("--state: expected pending, delivered or failed")
            }
            for job in try place.open().outbox.deliveries(formID: place.form, state: state, limit: limit) {
                let due = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(job.due) / 1000))
                print(
                    "\(job.id) \(job.state.rawValue) \(job.attempts) \(due) \(job.kind) \(job.shownDestination)")
            }
        }
    }

    /// `deliveries retry JOB`: the job is pending and due now; a running server sends it at its next round.
    struct Retry: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send a delivery job again: pending and due now, whatever its state.")

        @OptionGroup var place: SubmissionsCommand.Place

        @Argument(help: "The job's id (msg_…).")
        var job: String

        func run() throws {
            let now = UInt64((Date().timeIntervalSince1970 * 1000).rounded(.down))
            guard try place.open().outbox.retry(formID: place.form, id: job, now: now) else {
                FileHandle.standardError.write(Data("no delivery \(job) of form '\(place.form)'\n".utf8))
                throw ExitCode(1)
            }
            print("pending again: \(job)")
        }
    }
}
