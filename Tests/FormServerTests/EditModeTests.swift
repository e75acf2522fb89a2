import Foundation
import HTTPTestClient
import TestProcesses
import Testing

@testable import FormServer
@testable import FormStore

/// Editable forms end to end over loopback (`Forms/reunion.yaml`, `editable: true`): the sender's private
/// link, the form filled from the store, each save a new version, a save from an older page refused,
/// and links that are not the server's answered as nothing there.
@Suite struct EditModeTests {
    private static let ticket = Array("%PDF-1.4 ticket".utf8)

    /// A store of `backend` (`sqlite` or `postgres`), fresh for one test, as `--store` names it.
    private static func store(_ backend: String) throws -> (location: String, remove: @Sendable () -> Void) {
        if backend == "postgres" { return (try PostgresCluster.shared.get().newDatabase(), {}) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fw-edit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (
            "sqlite:" + folder.appendingPathComponent("formwright.db").path,
            {
                try? FileManager.default.removeItem(at: folder)
            }
        )
    }

    /// Posts the reunion form multipart from `session` to `target`, as a browser does: `name`, the rest
    /// fixed, the ticket `file` (an empty, nameless part when nil: an input left empty) and `version`.
    private static func post(
        _ session: BrowserSession, to target: String = "/forms/reunion", name: String, file: [UInt8]?,
        version: String? = nil
    ) throws -> TestResponse {
        let boundary = "----fw"
        var fields = [
            ("_csrf", session.token), ("name", name), ("email", "ada@example.org"), ("coming", "on"),
            ("guests", "1"), ("meal", "Fish"), ("note", "Arriving by train"),
        ]
        if let version { fields.append(("_version", version)) }
        var body: [UInt8] = []
        for (field, value) in fields {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"\r\n\r\n\(value)\r\n".utf8)
        }
        body += Array(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"ticket\"; filename=\"\(file == nil ? "" : "ticket.pdf")\"\r\n"
                .utf8)
        body +=
            Array("Content-Type: application/pdf\r\n\r\n".utf8) + (file ?? []) + Array("\r\n--\(boundary)--\r\n".utf8)
        return try request(
            session.port, "POST", target,
            headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)", "Cookie": session.cookie],
            bytes: body)
    }

    /// The value of `name` in `query` (`a=1&b=2`).
    private static func parameter(_ name: String, in target: String) -> String? {
        let query = target.split(separator: "?", maxSplits: 1).last ?? ""
        return query.split(separator: "&").first { $0.hasPrefix(name + "=") }.map {
            String($0.dropFirst(name.count + 1))
        }
    }

    /// A browser without script: sends the form with a file, follows the thank-you page's link, finds its
    /// answers and its file there, changes its name without choosing the file again, and saves; a save
    /// from the first page, read before, is a `409` that names the version now; the store keeps both
    /// versions, the file in each.
    @Test func aBrowserChangesItsAnswersThroughThePrivateLink() async throws {
        let (location, remove) = try Self.store("sqlite")
        defer { remove() }
        try await withFormServer(store: location) { port in
            let session = try BrowserSession(port: port, form: "reunion")
            let sent = try Self.post(session, name: "Ada", file: Self.ticket)
            #expect(sent.status == 303)
            let thanksTarget = try #require(sent.header("Location"))
            let id = try #require(Self.parameter("ref", in: thanksTarget))
            let token = try #require(Self.parameter("edit", in: thanksTarget))
            #expect(token.hasPrefix(id + "."))

            let thanks = try request(port, thanksTarget)
            #expect(thanks.text.contains("Your reference: \(id)"))
            let link = "/forms/reunion?edit=\(token)"
            #expect(thanks.text.contains(#"<p class="fw-edit"><a href="\#(link)">Change your answers</a></p>"#))
            #expect(thanks.text.contains("Anyone who has it can see and change them"))
            // Without its signature, or with another submission's id, the thank-you page offers no link.
            #expect(!(try request(port, "/forms/reunion/thanks?ref=\(id)&edit=\(id).x")).text.contains("fw-edit"))

            let page = try request(port, link, headers: ["Cookie": session.cookie])
            #expect(page.status == 200)
            #expect(page.text.contains("You are changing the answers you sent earlier (reference \(id))."))
            #expect(page.text.contains(#"name="name" value="Ada""#))
            #expect(BrowserSession.hiddenValue(named: "_version", in: page.text) == "1")
            #expect(page.text.contains(#"action="\#(link)""#))
            #expect(
                page.text.contains("ticket.pdf (\(Self.ticket.count) bytes) is kept and will be sent with the form."))

            let saved = try Self.post(session, to: link, name: "Ada Lovelace", file: nil, version: "1")
            #expect(saved.status == 303)
            #expect(saved.header("Location") == "/forms/reunion/thanks?ref=\(id)&edit=\(token)")

            // The first page again, read before that save: refused, nothing saved, the version now carried.
            let stale = try Self.post(session, to: link, name: "Ada King", file: nil, version: "1")
            #expect(stale.status == 409)
            #expect(stale.text.contains("Someone else saved this record after you opened it."))
            #expect(stale.text.contains(#"name="name" value="Ada King""#))
            #expect(BrowserSession.hiddenValue(named: "_version", in: stale.text) == "2")
            #expect(stale.text.contains("You are changing the answers you sent earlier (reference \(id))."))
            #expect(stale.text.contains("ticket.pdf (\(Self.ticket.count) bytes) is kept"))

            // A save refused for a value names the kept file again, and holds no copy of it: a copy would
            // outlive the submission's erasure.
            let refused = try Self.post(session, to: link, name: "", file: nil, version: "2")
            #expect(refused.status == 422)
            #expect(refused.text.contains("ticket.pdf (\(Self.ticket.count) bytes) is kept"))
            #expect(BrowserSession.hiddenValue(named: "_held.ticket", in: refused.text) == nil)
        }
        let store = try StoreLocation.open(location)
        let id = try #require(try store.submissions(formID: "reunion", limit: 10).first?.id)
        let versions = try #require(try store.versions(formID: "reunion", id: id))
        #expect(versions.map(\.version) == [1, 2])
        #expect(versions[0].httpParameters.contains(#""name":"Ada""#))
        #expect(versions[1].httpParameters.contains(#""name":"Ada Lovelace""#))
        #expect(versions.map { $0.files.map(\.bytes) } == [[Self.ticket], [Self.ticket]])
        let path = String(location.dropFirst("sqlite:".count))
        #expect(try SQLiteDatabase(path: path).prepare("SELECT count(*) FROM held_uploads").rows() == [["0"]])
    }

    /// An API client, on each backend: the answer to its post carries the version and the link; the
    /// link read as JSON gives the payloads and the version as the `ETag`; an edit with that `If-Match`
    /// saves the next version, keys it leaves out keep their values; one with an older `If-Match` is a
    /// `412` naming the version now. The versions are read back through the API.
    @Test(arguments: ["sqlite", "postgres"])
    func anAPIClientEditsWithIfMatch(_ backend: String) async throws {
        let (location, remove) = try Self.store(backend)
        defer { remove() }
        let key = APIKey.make()
        _ = try StoreLocation.open(location).add(
            StoredKey(
                name: "reader", hash: APIKey.hash(key), scopes: ["read", "export"], forms: ["reunion"],
                created: "2026-11-28"))
        try await withFormServer(store: location) { port in
            let sent = try postJSON(
                port, "reunion", #"{"name":"Grace","email":"grace@example.org","guests":2,"note":"Vegetarian please"}"#)
            #expect(sent.status == 200)
            #expect(sent.header("ETag") == #""1""#)
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(sent.body)) as? [String: Any])
            let id = try #require(answer["id"] as? String)
            #expect(answer["version"] as? Int == 1)
            let link = try #require(answer["edit"] as? String)
            #expect(link.hasPrefix("/forms/reunion?edit=\(id)."))

            let read = try request(port, link, headers: ["Accept": "application/json"])
            #expect(read.status == 200)
            #expect(read.header("ETag") == #""1""#)
            #expect(read.text.contains(#""name":"Grace""#))

            let edit = { (json: String, ifMatch: String?) in
                try postJSON(port, "reunion", json, path: link, headers: ifMatch.map { ["If-Match": $0] } ?? [:])
            }
            let saved = try edit(#"{"name":"Grace Hopper","email":"grace@example.org","guests":3}"#, #""1""#)
            #expect(saved.status == 200)
            #expect(saved.header("ETag") == #""2""#)
            #expect(saved.text.hasPrefix(#"{"id":"\#(id)","version":2,"edit":"#))
            // Left out, the note keeps its value.
            #expect(saved.text.contains(#""note":"Vegetarian please""#))

            let stale = try edit(#"{"name":"G. Hopper","email":"grace@example.org"}"#, #""1""#)
            #expect(stale.status == 412)
            #expect(stale.header("ETag") == #""2""#)
            #expect(stale.text.contains(#""code":"conflict""#))

            let versions = try request(
                port, "/api/forms/reunion/submissions/\(id)/versions", headers: ["Authorization": "Bearer \(key)"])
            #expect(versions.status == 200)
            let body = try #require(try JSONSerialization.jsonObject(with: Data(versions.body)) as? [String: Any])
            let list = try #require(body["versions"] as? [[String: Any]])
            #expect(list.map { $0["version"] as? Int } == [1, 2])
            #expect(
                list.map { ($0["httpParameters"] as? [String: Any])?["name"] as? String } == ["Grace", "Grace Hopper"])
            let one = try request(
                port, "/api/forms/reunion/submissions/\(id)", headers: ["Authorization": "Bearer \(key)"])
            #expect(one.text.contains(#""version":2"#))
            #expect(one.text.contains(#""edited":""#))
            // Exports give the current version, and the CSV of an editable form says which it is.
            let csv = try request(
                port, "/api/forms/reunion/submissions.csv", headers: ["Authorization": "Bearer \(key)"])
            let lines = csv.text.split(separator: "\r\n").map(String.init)
            #expect(lines.first?.hasPrefix("id,received,version,edited,Your name,Email,") == true)
            #expect(lines.count == 2)
            #expect(lines.last?.hasPrefix("\(id),") == true)
            #expect(lines.last?.contains(",2,") == true)
            #expect(lines.last?.contains(",Grace Hopper,") == true)
            let jsonl = try request(
                port, "/api/forms/reunion/submissions.jsonl", headers: ["Authorization": "Bearer \(key)"])
            #expect(jsonl.text.contains(#""version":2,"httpParameters":{"name":"Grace Hopper""#))
            // Without the read scope for the form, or with no key: nothing.
            #expect(try request(port, "/api/forms/reunion/submissions/\(id)/versions").status == 401)
        }
    }

    /// Links the server did not make open nothing, as does the link of an erased submission: `404` for a
    /// page and for a post (nothing kept), never another submission. A version's file is served from
    /// the API, a version that is not there is a `404`.
    @Test func linksThatAreNotTheServersOpenNothing() async throws {
        let (location, remove) = try Self.store("sqlite")
        defer { remove() }
        let key = APIKey.make()
        let database = try StoreLocation.open(location)
        _ = try database.add(
            StoredKey(
                name: "eraser", hash: APIKey.hash(key), scopes: ["read", "delete"], forms: [], created: "2026-11-28"))
        try await withFormServer(store: location) { port in
            let session = try BrowserSession(port: port, form: "reunion")
            let sent = try Self.post(session, name: "Ada", file: Self.ticket)
            let thanksTarget = try #require(sent.header("Location"))
            let id = try #require(Self.parameter("ref", in: thanksTarget))
            let token = try #require(Self.parameter("edit", in: thanksTarget))
            let signature = token.dropFirst(id.count + 1)
            // The signature with its last character changed (to another: a random one may be this).
            let altered = signature.dropLast() + (signature.last == "A" ? "Q" : "A")
            let other = SubmissionID(milliseconds: 1_764_000_000_000).description
            // Another form's link to the same submission, signed with the same secret; and a page's CSRF
            // token for the form with the id as its nonce, which the same key makes in another domain.
            let guardian = CSRFGuard(secret: "test secret")
            let joinToken = EditLinks(csrf: guardian).token(formID: "join", id: try #require(SubmissionID(id)))
            let csrfToken = "\(id).\(guardian.token(formID: "reunion", nonce: id))"
            for bad in [
                "\(id).\(altered)", "\(other).\(signature)", "nonsense", "\(id)", joinToken, csrfToken,
            ] {
                let page = try request(port, "/forms/reunion?edit=\(bad)", headers: ["Cookie": session.cookie])
                #expect(page.status == 404, "\(bad)")
                #expect(!page.text.contains("Ada"))
                #expect(try Self.post(session, to: "/forms/reunion?edit=\(bad)", name: "Eve", file: nil).status == 404)
            }
            let auth = ["Authorization": "Bearer \(key)"]
            let files = "/api/forms/reunion/submissions/\(id)/versions"
            #expect(try request(port, "\(files)/1/files/ticket", headers: auth).body == Self.ticket)
            #expect(try request(port, "\(files)/2/files/ticket", headers: auth).status == 404)
            #expect(try request(port, "\(files)/1/files/photo", headers: auth).status == 404)

            #expect(try request(port, "DELETE", "/api/forms/reunion/submissions/\(id)", headers: auth).status == 204)
            let link = "/forms/reunion?edit=\(token)"
            #expect(try request(port, link, headers: ["Cookie": session.cookie]).status == 404)
            #expect(try Self.post(session, to: link, name: "Ada", file: nil, version: "1").status == 404)
            #expect(try request(port, files, headers: auth).status == 404)
        }
        #expect(try database.submissions(formID: "reunion", limit: 10).isEmpty)
    }

    /// A row the store keeps hashed is not in the record an edit starts from: never shown, never hashed
    /// again as if the hash were the value. Left empty, the new version has none; given, a hash of it.
    @Test func hashedRowsStartEmptyAndAreHashedAnewWhenGiven() async throws {
        let forms = FileManager.default.temporaryDirectory.appendingPathComponent("fw-edit-forms-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: forms, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: forms) }
        try """
        id: member
        editable: true
        sections:
          - rows:
              - { tag: name, type: text, title: Name, required: true }
              - { tag: pin, type: password, title: PIN, store: hash }
        """.write(to: forms.appendingPathComponent("member.yaml"), atomically: true, encoding: .utf8)
        let (location, remove) = try Self.store("sqlite")
        defer { remove() }
        let (read, emptied, given) = try await withFormApp(store: location, forms: forms.path) { _, port in
            let sent = try postJSON(port, "member", #"{"name":"Ada","pin":"1234"}"#)
            let link = try #require(sent.text.firstMatch(of: /"edit":"([^"]+)"/).map { String($0.1) })
            let read = try request(port, link, headers: ["Accept": "application/json"])
            let emptied = try postJSON(port, "member", #"{"name":"Ada L"}"#, path: link, headers: ["If-Match": #""1""#])
            let given = try postJSON(
                port, "member", #"{"name":"Ada L","pin":"5678"}"#, path: link, headers: ["If-Match": #""2""#])
            return (read, emptied, given)
        }
        #expect(read.status == 200)
        #expect(read.text.contains(#""pin":null"#))
        #expect(!read.text.contains("scrypt"))
        #expect(emptied.status == 200 && given.status == 200)
        let store = try StoreLocation.open(location)
        let id = try #require(try store.submissions(formID: "member", limit: 1).first?.id)
        let versions = try #require(try store.versions(formID: "member", id: id))
        let pins = try versions.map { version in
            let payload = try #require(
                try JSONSerialization.jsonObject(with: Data(version.httpParameters.utf8)) as? [String: Any])
            return payload["pin"] as? String
        }
        #expect(pins.count == 3)
        #expect(PasswordHash.verify("1234", against: try #require(pins[0])))
        #expect(pins[1] == nil)
        #expect(PasswordHash.verify("5678", against: try #require(pins[2])))
    }

    /// Without a database store an editable form gives no links, and start says so, naming it.
    @Test func anEditableFormWithoutADatabaseSaysSoAtStart() async throws {
        let log = try LineLogHandlerTests.PipeLog()
        let answer = try await withFormApp(logger: log.logger("formwright")) { _, port in
            try postJSON(port, "reunion", #"{"name":"Ada","email":"ada@example.org"}"#)
        }
        #expect(answer.status == 200)
        #expect(!answer.text.contains(#""edit""#))
        log.sink.flush()
        let warnings = log.read().filter { $0.contains("this form is editable, but edits need a database store") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("form=reunion") == true)
    }
}
