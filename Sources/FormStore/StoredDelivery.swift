/// A delivery job: one submission to send to one destination (a webhook, an e-mail), written in the
/// same transaction as the submission (the transactional outbox) and sent until it is delivered or has
/// failed for good.
public struct StoredDelivery: Sendable, Equatable {
    /// Its id, stable across attempts: a webhook's `webhook-id`, by which a receiver drops repeats.
    public let id: String
    /// The submission it sends.
    public let submission: SubmissionID
    /// The version of the submission it sends: 1 as sent, more for an edit.
    public let version: Int
    /// The submission's form.
    public let formID: String
    /// `webhook` or `email`.
    public let kind: String
    /// Where it goes: the webhook's URL, or the e-mail's addresses, comma-separated.
    public let destination: String
    /// For a webhook, the environment variable holding its signing secret (as the server found it at
    /// start); empty for an e-mail.
    public let secretName: String
    /// An e-mail's subject and parts (`MailContent`'s JSON); empty for a webhook, whose body is made
    /// from the kept payloads when it is sent, so the outbox holds no second copy of them.
    public let body: String
    /// Where it stands.
    public let state: DeliveryState
    /// How many attempts were made.
    public let attempts: Int
    /// When the next attempt is due, in milliseconds since 1970.
    public let due: UInt64
    /// When the job was written: ISO 8601, UTC.
    public let created: String
    /// For a webhook job as a claim returns it, the payloads of its submission's version as the store
    /// keeps them; nil otherwise.
    public let payloads: DeliveryPayloads?

    /// A job with these parts.
    public init(
        id: String, submission: SubmissionID, version: Int, formID: String, kind: String, destination: String,
        secretName: String, body: String, state: DeliveryState = .pending, attempts: Int = 0, due: UInt64,
        created: String, payloads: DeliveryPayloads? = nil
    ) {
        self.id = id
        self.submission = submission
        self.version = version
        self.formID = formID
        self.kind = kind
        self.destination = destination
        self.secretName = secretName
        self.body = body
        self.state = state
        self.attempts = attempts
        self.due = due
        self.created = created
        self.payloads = payloads
    }
}

/// A submission version's payloads as the store keeps them (JSON), which a webhook sends.
public struct DeliveryPayloads: Sendable, Equatable {
    public let httpParameters: String
    public let formValues: String

    public init(httpParameters: String, formValues: String) {
        self.httpParameters = httpParameters
        self.formValues = formValues
    }
}

extension StoredDelivery {
    /// The range of the ids of submission `id`'s jobs, which all start `msg_<id>_`: from it, to before
    /// `msg_<id>` and the character after `_`.
    public static func ids(of id: SubmissionID) -> (from: String, before: String) { ("msg_\(id)_", "msg_\(id)`") }
}

/// Where a delivery job stands.
public enum DeliveryState: String, Sendable, CaseIterable {
    /// Waiting for its next attempt.
    case pending
    /// Taken by its receiver.
    case delivered
    /// Not taken after its last attempt (a redelivery makes it pending again).
    case failed
}

/// One attempt at a delivery, as its log keeps it.
public struct DeliveryAttempt: Sendable, Equatable {
    /// 1 for the first attempt.
    public let number: Int
    /// When it was made: ISO 8601, UTC.
    public let at: String
    /// Whether the receiver took it.
    public let delivered: Bool
    /// The HTTP status or SMTP reply code, if an answer came.
    public let status: Int?
    /// What went wrong, when it was not delivered.
    public let error: String?
    /// How long it took.
    public let milliseconds: Int

    /// An attempt with these parts.
    public init(number: Int, at: String, delivered: Bool, status: Int?, error: String?, milliseconds: Int) {
        self.number = number
        self.at = at
        self.delivered = delivered
        self.status = status
        self.error = error
        self.milliseconds = milliseconds
    }
}

/// An attempt made, and what becomes of its job: delivered, pending again until `due`, or failed.
public struct DeliveryResult: Sendable, Equatable {
    /// The job's id.
    public let id: String
    public let attempt: DeliveryAttempt
    /// The job's state after it.
    public let state: DeliveryState
    /// When the next attempt is due (milliseconds since 1970), for a job still pending.
    public let due: UInt64

    /// The result of `attempt` at job `id`.
    public init(id: String, attempt: DeliveryAttempt, state: DeliveryState, due: UInt64) {
        self.id = id
        self.attempt = attempt
        self.state = state
        self.due = due
    }
}

/// How many jobs of a form wait, and how many failed.
public struct DeliveryCount: Sendable, Equatable {
    public var pending = 0
    public var failed = 0

    public init(pending: Int = 0, failed: Int = 0) {
        self.pending = pending
        self.failed = failed
    }

    /// The counts per form of `rows`, each a form, a state and how many jobs of it are in that state.
    static func tally(_ rows: [(form: String, state: String, count: Int)]) -> [String: DeliveryCount] {
        var counts: [String: DeliveryCount] = [:]
        for row in rows {
            if row.state == DeliveryState.pending.rawValue {
                counts[row.form, default: DeliveryCount()].pending = row.count
            }
            if row.state == DeliveryState.failed.rawValue {
                counts[row.form, default: DeliveryCount()].failed = row.count
            }
        }
        return counts
    }
}
