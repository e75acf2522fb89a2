import FormEngine
import FormModel
import FormServer
import Foundation
import HTTPServer
import Synchronization

/// The stored records `Forms/account.yaml` edits, kept in memory: two saved accounts to start with,
/// and whatever the example's visitors save, up to `limit`. `/forms/account?user=ada` edits Ada's;
/// `/forms/account` makes a new one. Each account has a version, a counter raised by every save, so
/// that a save made from an older version is caught. A real deployment reads and writes its database here.
final class ExampleAccounts: Sendable {
    private struct Account {
        var record: JSONValue
        var version = 1
    }

    private let saved = Mutex<[String: Account]>([
        "ada": Account(
            record: .object([
                ("member-since", .string("2024-05-12")), ("username", .string("ada")),
                ("email", .string("ada@example.com")), ("plan", .string("pro")), ("newsletter", .bool(true)),
                ("renews", .string("2027-01-01T09:00:00+01:00")),
                ("devices", .array([.string("laptop"), .string("phone")])),
            ])),
        "grace": Account(
            record: .object([
                ("member-since", .string("2025-02-03")), ("username", .string("grace")),
                ("email", .string("grace@example.com")), ("plan", .string("free")), ("newsletter", .bool(false)),
            ])),
    ])
    /// The most accounts kept: the example must not grow without bound on a public demo.
    static let limit = 100

    /// Whether `folder` serves the example's account form: a form `account` with the example's
    /// `username` and `member-since` rows. A folder that does not load is left to the server to report.
    static func isServed(in folder: String) -> Bool {
        guard let form = (try? FormCatalog(folder: folder))?.forms["account"]?.form else { return false }
        let tags = Set(form.allRows.compactMap(\.value.tag))
        return tags.isSuperset(of: ["username", "member-since"])
    }

    /// The record `?user=NAME` names: none without the parameter, a 404 for a name never saved.
    func find(_ request: Request) -> RecordLookup {
        guard let user = request.query["user"] else { return .none }
        guard let account = saved.withLock({ $0[user] }) else {
            return .notFound("There is no account named '\(user)'.")
        }
        return .record(account.record, version: String(account.version))
    }

    /// Saves a valid submission under its user name, dated today when new, and shows it again. A new
    /// account (no record edited) never replaces a saved one: its user name must be free. An edit saves
    /// over the account it edits (its user name is disabled, so the server keeps the stored one), if
    /// nobody saved it since the server checked the version the edit was made from.
    func save(_ submission: ValidSubmission) -> Response {
        guard case .object(var fields) = submission.httpParameters,
            case .string(let user)? = submission.httpParameters["username"]
        else { return .error(.internalServerError, "the account form gave no user name") }
        if let index = fields.firstIndex(where: { $0.0 == "member-since" }), fields[index].1 == .null {
            fields[index].1 = .string(Self.today())
        }
        let isNew = submission.record == nil
        // Checked and saved under one lock: two visitors choosing the same name cannot both have it.
        let outcome = saved.withLock { accounts -> Outcome in
            if isNew {
                guard accounts[user] == nil else { return .taken }
                guard accounts.count < Self.limit else { return .full }
                accounts[user] = Account(record: .object(fields))
                return .saved
            }
            // Compare and swap: the version checked is the one saved over.
            let version = accounts[user]?.version ?? 0
            guard String(version) == submission.version else { return .changed(version: version) }
            accounts[user] = Account(record: .object(fields), version: version + 1)
            return .saved
        }
        switch outcome {
        case .taken:
            return submission.refuse("username", "The user name '\(user)' is taken: choose another one.")
        case .full:
            // Not the user name's fault, and not a state that passes (503 would say "retry later"): the
            // whole form is refused, with the values kept.
            return submission.refuse(
                "", "The example keeps at most \(Self.limit) accounts, and has that many: restart it to start again.")
        case .changed(let version):
            return submission.changed(version: String(version))
        case .saved: break
        }
        if submission.wantsJSON {
            return submission.json(.object(fields))
        }
        return .redirect(to: "/forms/account?" + QueryParameters([(name: "user", value: user)]).urlencoded)
    }

    /// What saving a submission came to.
    private enum Outcome {
        case saved
        /// A new account under a user name already saved.
        case taken
        /// A new account when `limit` are saved.
        case full
        /// An edit of an account saved again after the server checked its version, which is now this.
        case changed(version: Int)
    }

    /// Today's date in UTC, as a `date` row holds it.
    private static func today() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: Date())
    }
}
