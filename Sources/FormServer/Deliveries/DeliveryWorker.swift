import FormDelivery
import FormStore
import Foundation
import Logging

/// Sends a store's delivery jobs: a thread of its own claims the jobs that are due (on PostgreSQL a
/// lease keeps them from every other server's worker), sends them through libcurl many at once, and
/// records each attempt. A job not delivered is tried again with exponential backoff and jitter, until
/// its attempts are spent.
/// Woken when a submission brings jobs; otherwise it looks for due ones every `idle`.
final class DeliveryWorker: @unchecked Sendable {
    /// How deliveries are sent and retried.
    struct Settings: Sendable {
        /// Attempts before a job has failed for good.
        var attempts = 16
        /// The wait after the first failed attempt; each later wait doubles, up to `longestDelay`.
        var firstDelay: Duration = .seconds(5)
        var longestDelay: Duration = .seconds(86_400)
        /// How long one attempt may take.
        var timeout: Duration = .seconds(10)
        /// How long a claimed job is kept from other workers: well past an attempt's timeout.
        var lease: Duration = .seconds(60)
        /// How many jobs one round claims and sends at once.
        var batch = 256
        /// How often an idle worker looks for due jobs (another server's, or a retry's).
        var idle: Duration = .milliseconds(250)
        /// How long a worker that found fewer jobs than a batch lets more gather before it looks again:
        /// under a stream of posts, a few rounds a second with many jobs each, not one round a post.
        var gather: Duration = .milliseconds(20)
        /// While posts keep bringing jobs, the worker rests this many times as long as each round kept its
        /// thread busy (claiming, sending, recording): deliveries then take about a twentieth of one core
        /// from the posts, which come first; once the posts stop, the jobs waiting go at full speed.
        var restPerRound = 20.0
        /// The SMTP server and the sender's address, for e-mail jobs.
        var smtp: MailServer?
        var mailFrom: String?
    }

    private let outbox: any DeliveryOutbox
    private let settings: Settings
    /// The environment webhooks' secrets are read from (`secretEnv`), as the server found it at start.
    private let environment: [String: String]
    /// Each secret read so far, by its variable; nil for a variable unset or malformed. Used by the
    /// worker's thread alone.
    private var secrets: [String: WebhookSecret?] = [:]
    private let logger: Logger
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var woken = false
    /// Whether the worker waits for jobs (`rest`): only then does a post's `wake` signal it, so a stream
    /// of posts costs no thread switch each.
    private var resting = false
    /// Whether submissions brought jobs since the worker last looked.
    private var brought = false
    private var stopping = false
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)

    init(outbox: any DeliveryOutbox, settings: Settings, environment: [String: String], logger: Logger) {
        self.outbox = outbox
        self.settings = settings
        self.environment = environment
        self.logger = logger
    }

    /// Starts the worker's thread.
    func start() throws(DeliveryError) {
        let courier = try Courier(timeout: settings.timeout, parallel: 64)
        let thread = Thread { [self] in
            // Named from inside: Linux takes a thread's name from the thread itself.
            Thread.current.name = "fw-deliveries"
            run(courier)
            finished.signal()
        }
        self.thread = thread
        thread.start()
    }

    /// Says that jobs were written: the worker looks at once rather than at its next round.
    func wake() {
        condition.lock()
        brought = true
        if resting {
            woken = true
            condition.signal()
        }
        condition.unlock()
    }

    /// Stops the worker once the round under way is recorded: as long as its slowest receivers take, up to
    /// an attempt's timeout for each group of 64 under way at once. A round cut short by the process's end
    /// is sent again after a restart.
    func stop() {
        guard thread != nil else { return }
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
        finished.wait()
        thread = nil
    }

    private func run(_ courier: Courier) {
        var unavailable = false
        // A round's results the store did not take: recorded before anything is claimed again, so the
        // same jobs are not sent again while the store is away (a job is sent again only if this process
        // ends first).
        var unrecorded: [DeliveryResult] = []
        while !isStopping() {
            if !unrecorded.isEmpty {
                do {
                    try outbox.record(unrecorded)
                    unrecorded = []
                } catch {
                    pause(settings.idle)
                    continue
                }
            }
            let processorTime = Self.threadTime()
            let now = Self.milliseconds()
            let jobs: [StoredDelivery]
            do {
                jobs = try outbox.claim(
                    now: now, lease: now + UInt64(settings.lease.components.seconds * 1000), limit: settings.batch)
                if unavailable { logger.notice("deliveries resume: the store answers again") }
                unavailable = false
            } catch {
                if !unavailable {
                    logger.error("deliveries wait: the store does not answer", metadata: ["error": "\(error)"])
                }
                unavailable = true
                pause(settings.idle)
                continue
            }
            guard !jobs.isEmpty else {
                rest()
                continue
            }
            let started = Date()
            let outcomes = send(jobs, through: courier)
            let results = zip(jobs, outcomes).map { result($0, $1.outcome, final: $1.final, at: started) }
            do {
                try outbox.record(results)
            } catch {
                logger.error("delivery attempts not recorded", metadata: ["error": "\(error)"])
                unrecorded = results
            }
            // Posts that brought jobs during the round are under way: they come first. The rest is
            // measured in the round's work, not the time receivers took to answer.
            if takeBrought() {
                pause((Self.threadTime() - processorTime) * settings.restPerRound)
            }
            // One job alone is sent at once; several are a stream, which gathers into larger rounds.
            if jobs.count > 1, jobs.count < settings.batch { pause(settings.gather) }
        }
    }

    /// Sends `jobs`, each as its kind says; a job that cannot be sent (its secret unset, no SMTP server)
    /// fails its attempt without a transfer.
    private func send(_ jobs: [StoredDelivery], through courier: Courier) -> [(outcome: Outcome, final: Bool)] {
        var outcomes = [(outcome: Outcome, final: Bool)?](repeating: nil, count: jobs.count)
        var outbound: [(position: Int, message: Outbound)] = []
        let timestamp = Int(Date().timeIntervalSince1970)
        for (position, job) in jobs.enumerated() {
            switch message(for: job, timestamp: timestamp) {
            case .success(let message): outbound.append((position, message))
            case .failure(let problem):
                outcomes[position] = (Outcome(status: nil, error: problem.text, milliseconds: 0), problem.final)
            }
        }
        for (sent, outcome) in zip(outbound, courier.send(outbound.map(\.message))) {
            outcomes[sent.position] = (outcome, false)
        }
        return outcomes.map { $0 ?? (Outcome(status: nil, error: "not sent", milliseconds: 0), false) }
    }

    /// Why a job could not be made into a message; `final` when no later attempt can do better (the
    /// environment does not change while the server runs), so the job fails at once.
    private struct Problem: Error {
        let text: String
        var final = false
    }

    /// The message `job` sends now: a signed `POST`, or an e-mail.
    private func message(for job: StoredDelivery, timestamp: Int) -> Result<Outbound, Problem> {
        switch job.kind {
        case "webhook":
            if secrets[job.secretName] == nil {
                secrets[job.secretName] = environment[job.secretName].flatMap(WebhookSecret.init)
            }
            guard let secret = secrets[job.secretName] ?? nil else {
                return .failure(
                    Problem(
                        text: "the environment variable \(job.secretName) holding the secret is not set, or is no "
                            + "signing secret (\(WebhookSecret.expected))", final: true))
            }
            // The store erases a submission's jobs with it: a job without payloads has lost its submission
            // some other way, and no later attempt finds it either.
            guard let payloads = job.payloads else {
                return .failure(Problem(text: "its submission's version \(job.version) is no longer kept", final: true))
            }
            let body = WebhookBody.bytes(job, payloads)
            return .success(
                .post(
                    url: job.destination,
                    headers: [
                        ("Content-Type", "application/json"), ("webhook-id", job.id),
                        ("webhook-timestamp", String(timestamp)),
                        ("webhook-signature", secret.signature(id: job.id, timestamp: timestamp, body: body)),
                    ], body: body))
        case "email":
            guard let server = settings.smtp, let from = settings.mailFrom else {
                return .failure(Problem(text: "no SMTP server is set (--smtp and --mail-from)"))
            }
            guard let content = MailContent(json: job.body) else {
                return .failure(Problem(text: "the message kept with the job cannot be read"))
            }
            let to = job.destination.split(separator: ",").map(String.init)
            return .success(
                .mail(
                    server: server, from: from, to: to,
                    message: MailMessage.bytes(from: from, to: to, content: content, id: job.id, date: Date())))
        default:
            return .failure(Problem(text: "'\(job.kind)' is no kind of delivery this server sends", final: true))
        }
    }

    /// What `outcome` makes of `job`: delivered, pending until its next attempt, or failed for good (at
    /// once when the outcome is `final`).
    private func result(_ job: StoredDelivery, _ outcome: Outcome, final: Bool, at time: Date) -> DeliveryResult {
        let number = job.attempts + 1
        let attempt = DeliveryAttempt(
            number: number, at: SubmissionStore.Files.timestamp(time).iso, delivered: outcome.delivered,
            status: outcome.status, error: outcome.error, milliseconds: outcome.milliseconds)
        if outcome.delivered { return DeliveryResult(id: job.id, attempt: attempt, state: .delivered, due: job.due) }
        guard number < settings.attempts, !final else {
            logger.warning(
                "delivery failed for good",
                metadata: [
                    "form": "\(job.formID)", "job": "\(job.id)", "attempts": "\(number)",
                    "error": "\(outcome.error ?? "")",
                ])
            return DeliveryResult(id: job.id, attempt: attempt, state: .failed, due: job.due)
        }
        logger.info(
            "delivery attempt failed",
            metadata: [
                "form": "\(job.formID)", "job": "\(job.id)", "attempt": "\(number)", "error": "\(outcome.error ?? "")",
            ])
        return DeliveryResult(
            id: job.id, attempt: attempt, state: .pending, due: Self.milliseconds() + delay(after: number))
    }

    /// The wait after failed attempt `number`, in milliseconds: `firstDelay` doubled each attempt up to
    /// `longestDelay`, then three quarters to five quarters of it, so jobs that failed together do not
    /// come back together.
    func delay(after number: Int) -> UInt64 {
        let first = Self.seconds(settings.firstDelay) * 1000
        let longest = Self.seconds(settings.longestDelay) * 1000
        let base = min(first * pow(2, Double(min(number - 1, 40))), longest)
        return UInt64(base * Double.random(in: 0.75...1.25))
    }

    private func isStopping() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopping
    }

    /// Waits `duration` unless stopped meanwhile; posts' jobs do not cut it short.
    private func pause(_ duration: Duration) {
        condition.lock()
        defer { condition.unlock() }
        let until = Date(timeIntervalSinceNow: Self.seconds(duration))
        while !stopping, condition.wait(until: until) {}
    }

    /// Whether submissions brought jobs since the last call.
    private func takeBrought() -> Bool {
        condition.lock()
        defer {
            brought = false
            condition.unlock()
        }
        return brought
    }

    /// Waits until woken, stopped, or `idle` has passed; not at all when posts brought jobs since the
    /// worker last looked (once: a job not yet due is not looked for again at once).
    private func rest() {
        condition.lock()
        defer { condition.unlock() }
        if brought {
            brought = false
        } else if !woken, !stopping {
            resting = true
            _ = condition.wait(until: Date(timeIntervalSinceNow: Self.seconds(settings.idle)))
            resting = false
        }
        woken = false
    }

    static func milliseconds() -> UInt64 { Date().milliseconds }

    /// `duration` in seconds, its fraction kept.
    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The processor time this thread has used.
    private static func threadTime() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}
