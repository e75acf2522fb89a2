/// The delivery jobs a store keeps (`StoredDelivery`), written with their submissions (`keep`) and
/// sent by the servers' delivery workers: each claims due jobs for a lease, sends them, and records
/// each attempt. A job claimed by one worker is claimed by no other until its lease ends, so no two
/// send it at once; a worker that dies leaves its jobs to be claimed again when their leases end.
public protocol DeliveryOutbox: Sendable {
    /// Claims at most `limit` jobs that are pending, due by `now` and not leased, oldest due first,
    /// leasing them until `lease` (milliseconds since 1970). On PostgreSQL, servers claiming at once
    /// skip each other's rows (`FOR UPDATE SKIP LOCKED`); an SQLite file has one server, whose one worker
    /// records each round before it claims the next, so no lease is written there.
    func claim(now: UInt64, lease: UInt64, limit: Int) throws(StoreError) -> [StoredDelivery]

    /// Records `results` in one transaction: each attempt in its job's log, each job's new state, its
    /// lease ended.
    func record(_ results: [DeliveryResult]) throws(StoreError)

    /// The jobs of submission `id` of form `formID`, in the order they were written, each with its
    /// attempts.
    func deliveries(
        formID: String, submission id: SubmissionID
    ) throws(StoreError) -> [(
        delivery: StoredDelivery, attempts: [DeliveryAttempt]
    )]

    /// At most `limit` jobs of form `formID` in `state`, newest first.
    func deliveries(formID: String, state: DeliveryState, limit: Int) throws(StoreError) -> [StoredDelivery]

    /// Makes job `id` of form `formID` pending and due at `now`, whatever its state (a redelivery); a
    /// job under way keeps its lease, and goes again once that round is recorded. False when the form has
    /// no such job.
    func retry(formID: String, id: String, now: UInt64) throws(StoreError) -> Bool

    /// How many jobs wait, and how many failed, per form that has any.
    func counts() throws(StoreError) -> [String: DeliveryCount]
}
