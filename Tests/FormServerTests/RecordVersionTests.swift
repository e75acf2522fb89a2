import FormEngine
import Foundation
import HTTPServer
import HTTPTestClient
import Synchronization
import Testing

@testable import FormServer

/// Stored records with versions (`RecordLookup.record(_:version:)`): a save made from an older version
/// than the record's now is caught, on `Forms/account.yaml`, end to end over loopback.
@Suite struct RecordVersionTests {
    /// Ada's account and its version, raised by every save; the handler saves with compare and swap.
    final class Store: Sendable {
        let state = Mutex((record: JSONValue.null, version: 1))

        init() throws {
            let ada = try JSONValue(parsing: Array(StoredRecordsTests.ada.utf8))
            state.withLock { $0.record = ada }
        }

        /// Saves over Ada's account from outside the server: someone else's save.
        func bump() { state.withLock { $0.version += 1 } }
    }

    /// Hooks reading and saving `store`; `version` gives the provider's version text (the record's by default).
    static func hooks(_ store: Store, version: (@Sendable (Int) -> String)? = nil) -> FormHooks {
        var hooks = exampleHooks()
        hooks.records("account") { request in
            guard request.query["user"] == "ada" else { return .none }
            let (record, current) = store.state.withLock { ($0.record, $0.version) }
            return .record(record, version: version?(current) ?? String(current))
        }
        hooks.handle("account") { submission in
            let outcome = store.state.withLock { state -> Int? in
                guard String(state.version) == submission.version else { return state.version }
                state.record = submission.httpParameters
                state.version += 1
                return nil
            }
            if let now = outcome { return submission.changed(version: String(now)) }
            if submission.wantsJSON { return .text(.ok, "saved") }
            return .redirect(to: "/forms/account?user=ada")
        }
        return hooks
    }

    static let edit = [("email", "ada@lovelace.example"), ("plan", "pro"), ("renews", "2027-01-01T09:00")]

    @Test func thePageCarriesTheVersionAndTheJSONReadItsETag() async throws {
        let store = try Store()
        let (page, json) = try await withFormApp(hooks: Self.hooks(store)) { _, port in
            (
                try request(port, "/forms/account?user=ada"),
                try request(port, "/forms/account?user=ada", headers: ["Accept": "application/json"])
            )
        }
        #expect(page.text.contains(#"<input type="hidden" name="_version" value="1">"#))
        #expect(json.status == 200)
        #expect(json.header("ETag") == #""1""#)
    }

    /// Two people open Ada's account; the first saves; the second's save is answered 409, the page
    /// again with what they typed and the summary saying why, at the version now, so that sending it
    /// again saves.
    @Test func aSaveFromAnOlderVersionIsAConflictAndSendingAgainSaves() async throws {
        let store = try Store()
        let (first, second, again) = try await withFormApp(hooks: Self.hooks(store)) { _, port in
            let target = "/forms/account?user=ada"
            let alice = try StoredRecordsTests.session(port, target)
            let bob = try StoredRecordsTests.session(port, target)
            let first = try StoredRecordsTests.post(
                port, target, [("_version", "1")] + Self.edit, accept: "text/html", session: alice)
            let mine = [
                ("_version", "1"), ("email", "bob@example.com"), ("plan", "pro"), ("renews", "2027-01-01T09:00"),
            ]
            let second = try StoredRecordsTests.post(port, target, mine, accept: "text/html", session: bob)
            let version = try #require(BrowserSession.hiddenValue(named: "_version", in: second.text))
            var resent = mine
            resent[0] = ("_version", version)
            let again = try StoredRecordsTests.post(port, target, resent, accept: "text/html", session: bob)
            return (first, second, again)
        }
        #expect(first.status == 303)
        #expect(second.status == 409)
        #expect(second.text.contains("Someone else saved this record after you opened it"))
        #expect(second.text.contains(#"value="bob@example.com""#))
        #expect(second.text.contains(#"name="_version" value="2""#))
        #expect(again.status == 303)
        #expect(store.state.withLock { $0.version } == 3)
        #expect(store.state.withLock { $0.record["email"] } == .string("bob@example.com"))
    }

    /// The reader's language, and the errors of an invalid post beside the conflict.
    @Test func theConflictIsSaidInTheReadersLanguageWithTheFormsOtherErrors() async throws {
        let store = try Store()
        store.bump()
        let page = try await withFormApp(hooks: Self.hooks(store)) { _, port in
            let target = "/forms/account?user=ada"
            let session = try StoredRecordsTests.session(port, target)
            let body = ([("_csrf", session.token), ("_version", "1"), ("email", "not an address"), ("plan", "pro")])
                .map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
            return try request(
                port, "POST", target,
                headers: [
                    "Content-Type": "application/x-www-form-urlencoded", "Cookie": session.cookie,
                    "Accept-Language": "zh-Hans",
                ], body: body)
        }
        #expect(page.status == 409)
        #expect(page.text.contains("其他人保存了它"))
        #expect(page.text.contains(#"aria-invalid="true""#))
        #expect(page.text.contains(#"name="_version" value="2""#))
    }

    /// An API client sends the `ETag` it read in `If-Match`: an older one is a 412 with the version now;
    /// `*` and no `If-Match` are not checked; a weak tag never matches (RFC 9110 §13.1.1).
    @Test func apiClientsSendTheETagTheyReadInIfMatch() async throws {
        let store = try Store()
        let results = try await withFormApp(hooks: Self.hooks(store)) { _, port in
            let body = #"{"email":"api@example.com"}"#
            let target = "/forms/account?user=ada"
            return [
                try postJSON(port, "account", body, path: target, headers: ["If-Match": #""1""#]),  // saves: 2
                try postJSON(port, "account", body, path: target, headers: ["If-Match": #""1""#]),  // stale
                try postJSON(port, "account", body, path: target, headers: ["If-Match": #"W/"2""#]),  // weak
                try postJSON(port, "account", body, path: target, headers: ["If-Match": #""7", "2""#]),  // saves: 3
                try postJSON(port, "account", body, path: target, headers: ["If-Match": "*"]),  // saves: 4
                try postJSON(port, "account", body, path: target),  // saves: 5
            ]
        }
        #expect(results.map(\.status) == [200, 412, 412, 200, 200, 200])
        #expect(results[1].header("ETag") == #""2""#)
        #expect(results[1].text.contains(#""code":"conflict""#))
        #expect(results[1].text.contains("If-Match"))
        #expect(store.state.withLock { $0.version } == 5)  // four saves
    }

    /// The handler finds the record saved after the server's check (its compare and swap fails): the
    /// same answer, at the version the handler names.
    @Test func aHandlerThatFindsTheRecordChangedAnswersAsTheServerDoes() async throws {
        let store = try Store()
        // The provider is one save behind the store: the server's check passes, the handler's does not.
        let page = try await withFormApp(hooks: Self.hooks(store, version: { String($0 - 1) })) { _, port in
            store.bump()
            let target = "/forms/account?user=ada"
            let session = try StoredRecordsTests.session(port, target)
            return try StoredRecordsTests.post(
                port, target, [("_version", "1")] + Self.edit, accept: "text/html", session: session)
        }
        #expect(page.status == 409)
        #expect(page.text.contains(#"name="_version" value="2""#))
        #expect(store.state.withLock { $0.record["email"] } == .string("ada@example.com"))
    }

    /// A version that cannot be an entity tag's text is the application's mistake: the record is not
    /// edited (500), and the log says why.
    @Test(arguments: [#"a"b"#, "", "two words", String(repeating: "9", count: 257)])
    func aVersionThatIsNoEntityTagRefusesTheRecord(version: String) async throws {
        let store = try Store()
        let page = try await withFormApp(hooks: Self.hooks(store, version: { _ in version })) { _, port in
            try request(port, "/forms/account?user=ada")
        }
        #expect(page.status == 500)
        #expect(!page.text.contains("ada@example.com"))
    }

    @Test func ifMatchListsAreReadAsRFC9110Says() {
        #expect(RecordVersion.versions(ifMatch: #""1""#) == ["1"])
        #expect(RecordVersion.versions(ifMatch: #" "a" , W/"b", "c""#) == ["a", "c"])
        #expect(RecordVersion.versions(ifMatch: "*") == nil)
        #expect(RecordVersion.versions(ifMatch: "17") == ["17"])
        #expect(RecordVersion.versions(ifMatch: #"W/"1""#) == [])
        #expect(RecordVersion.versions(ifMatch: "") == [])
    }
}
