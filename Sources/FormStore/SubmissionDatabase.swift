/// Where valid submissions are kept: an SQLite file (`SQLiteSubmissionStore`) or a PostgreSQL
/// database (`PostgresSubmissionStore`). Both pass the same tests; the server speaks only this.
public protocol SubmissionDatabase: Sendable {
    /// The store for messages: a file's path, or a URL with its password hidden.
    var name: String { get }

    /// Keeps `submission` and its delivery jobs, returning once their transaction has committed:
    /// answered as kept means durable, and a submission is never kept without its deliveries.
    func keep(_ submission: StoredSubmission) async throws(StoreError)

    /// The submissions to form `formID` whose ids are in `range`, newest first, at most `limit`, without
    /// their files: a page of a listing. With `containing`, only those whose `httpParameters` JSON text
    /// holds it, the letters A to Z in either case (PostgreSQL folds other letters too): a search, which
    /// reads rows until it has `limit`.
    func submissions(
        formID: String, in range: SubmissionRange, containing: String?, limit: Int
    ) throws(StoreError) -> [StoredSubmission]

    /// Submission `id` of form `formID`, with its files; nil when the form has no such one.
    func submission(formID: String, id: SubmissionID) throws(StoreError) -> StoredSubmission?

    /// The submissions to form `formID`, oldest first, without their files, read one at a time on a
    /// connection of the cursor's own: an export of any size holds one submission in memory, and holds
    /// up no post meanwhile. Without `formValues`, each one's `formValues` is left empty: a CSV export
    /// reads `httpParameters` alone, and half the bytes.
    /// Only those in `range`, and `containing` as a listing takes it, when given.
    func cursor(
        formID: String, formValues: Bool, range: SubmissionRange, containing: String?
    ) throws(StoreError) -> any SubmissionCursor

    /// Erases submission `id` of form `formID`, every version and file of it; false when the form has no such one.
    func delete(formID: String, id: SubmissionID) throws(StoreError) -> Bool

    /// Saves `edit` as the next version of submission `edit.id` of form `edit.formID` (its payloads,
    /// its files, and `edit.received` as the time of the edit) if the submission is at `version` now,
    /// in one transaction that has committed when this returns, with `edit.deliveries`. The version
    /// replaced is kept, files included (`versions`).
    func revise(_ edit: StoredSubmission, from version: Int) throws(StoreError) -> Revision

    /// Every version of submission `id` of form `formID`, oldest first and the current one last, with
    /// their files; nil when the form has no such submission.
    func versions(formID: String, id: SubmissionID) throws(StoreError) -> [StoredVersion]?

    /// The counts of form `formID` (`SubmissionCounts`), its hours from hour `sinceHour` (since 1970, UTC).
    func counts(formID: String, sinceHour: Int) throws(StoreError) -> SubmissionCounts

    /// How many submissions to form `formID` from hour `sinceHour` on were counted under each answer
    /// (`StoredSubmission.answers`), for answers counted at least once.
    func answerCounts(formID: String, sinceHour: Int) throws(StoreError) -> [String: Int]

    /// Keeps `session`, and removes every session that ended before `now` (milliseconds since 1970).
    func openSession(_ session: AdminSession, now: UInt64) throws(StoreError)

    /// The session whose hash is `hash` and the key that opened it, unless the session ended before `now`
    /// or the key was revoked since.
    func session(hash: String, now: UInt64) throws(StoreError) -> (session: AdminSession, key: StoredKey)?

    /// Ends the session whose hash is `hash`, if there is one.
    func closeSession(hash: String) throws(StoreError)

    /// The delivery jobs kept with the submissions.
    var outbox: any DeliveryOutbox { get }

    /// Throws unless the store answers now: for a readiness check.
    func ping() throws(StoreError)

    /// Adds `key`; false when a key of its name exists (the store keeps the first).
    func add(_ key: StoredKey) throws(StoreError) -> Bool

    /// Every key, by name.
    func keys() throws(StoreError) -> [StoredKey]

    /// The key whose hash is `hash`, if there is one.
    func key(hash: String) throws(StoreError) -> StoredKey?

    /// Removes the key named `name`; false when there is none.
    func revokeKey(named name: String) throws(StoreError) -> Bool

    /// Holds `file`, a valid upload of a post refused for another reason, under `reference` for form
    /// `formID` until `expires` (milliseconds since 1970), so the next post can have it without the
    /// reader choosing it again; removes every held file whose time ended before `now`.
    func hold(_ file: StoredFile, reference: String, formID: String, expires: UInt64, now: UInt64) throws(StoreError)

    /// Takes the file held under `reference` for form `formID`, unless its time ended before `now`: it
    /// is held no longer, so no copy of a submission's file outlives its use.
    func takeHeld(reference: String, formID: String, now: UInt64) throws(StoreError) -> StoredFile?
}

extension SubmissionDatabase {
    /// The newest `limit` submissions to form `formID`, without their files.
    public func submissions(formID: String, limit: Int) throws(StoreError) -> [StoredSubmission] {
        try submissions(formID: formID, in: SubmissionRange(), containing: nil, limit: limit)
    }

    /// A page of a listing, not searched.
    public func submissions(
        formID: String, in range: SubmissionRange, limit: Int
    ) throws(StoreError) -> [StoredSubmission] {
        try submissions(formID: formID, in: range, containing: nil, limit: limit)
    }

    /// Every submission to form `formID`, oldest first (`cursor(formID:formValues:range:containing:)`).
    public func cursor(formID: String, formValues: Bool) throws(StoreError) -> any SubmissionCursor {
        try cursor(formID: formID, formValues: formValues, range: SubmissionRange(), containing: nil)
    }

    /// `cursor(formID:formValues:)` with the `formValues`.
    public func cursor(formID: String) throws(StoreError) -> any SubmissionCursor {
        try cursor(formID: formID, formValues: true)
    }

    /// Calls `body` with each submission to form `formID`, oldest first, without its files, and
    /// without its `formValues` unless asked (`cursor`).
    public func forEach(
        formID: String, formValues: Bool = true, _ body: (StoredSubmission) -> Void
    ) throws(StoreError) {
        let cursor = try cursor(formID: formID, formValues: formValues)
        while let submission = try cursor.next() { body(submission) }
    }
}

/// Submissions read one at a time. Used by one thread at a time; it closes its connection when dropped.
public protocol SubmissionCursor: AnyObject, Sendable {
    /// The next submission, or nil after the last.
    func next() throws(StoreError) -> StoredSubmission?
}
