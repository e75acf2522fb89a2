import FormStore
import Foundation
import HTTPTestClient
import Testing

@testable import FormServer

/// `serve --store sqlite:PATH`: valid submissions of forms without a handler kept in a database, each
/// with an id, their files with them, passwords never.
@Suite struct DatabaseStoreTests {
    /// A fresh folder under the system's temporary one, removed after `body`.
    private func withFolder<T>(_ body: (String) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fw-db-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        return try await body(folder)
    }

    private static let validEvent =
        #"{"title":"Team lunch","starts":"2026-11-23T12:00","ends":"2026-11-23T13:00","alert":"never","guests":8}"#

    /// The JSON answer names the id first; what is stored under it is the answer's payload, and it is
    /// still there for a server started afresh on the same file. The store's folder is made at start.
    @Test func aValidSubmissionIsKeptUnderTheIdItsAnswerNames() async throws {
        try await withFolder { folder in
            let path = "\(folder)/data/formwright.db"
            let (answer, invalid) = try await withFormServer(store: "sqlite:\(path)") { port in
                (try postJSON(port, "event", Self.validEvent), try postJSON(port, "event", #"{"title":""}"#))
            }
            #expect(answer.status == 200)
            #expect(invalid.status == 422)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any])
            let id = try #require(json["id"] as? String)
            #expect(answer.text.hasPrefix(#"{"id":""#))
            #expect(SubmissionID(id) != nil)
            let kept = try SQLiteSubmissionStore(path: path).all("event")
            #expect(kept.map(\.id.description) == [id])
            let first = try #require(kept.first)
            let stored = try #require(
                try JSONSerialization.jsonObject(with: Data(first.httpParameters.utf8)) as? [String: Any])
            #expect(stored["title"] as? String == "Team lunch")
            #expect(stored["guests"] as? Int == 8)
            // A second server on the same file, as after a restart, keeps adding to it.
            _ = try await withFormServer(store: "sqlite:\(path)") { port in try postJSON(port, "event", Self.validEvent)
            }
            #expect(try SQLiteSubmissionStore(path: path).all("event").count == 2)
        }
    }

    /// A password row is answered to its client, as the form's payload has it, but never stored.
    @Test func aPasswordIsAnsweredButNeverStored() async throws {
        try await withFolder { folder in
            let path = "\(folder)/formwright.db"
            let body =
                #"{"username":"ada_l","email":"ada@example.com","password":"correct horse","confirm":"correct horse"}"#
            let answer = try await withFormServer(store: "sqlite:\(path)") { port in
                try postJSON(port, "validations", body)
            }
            #expect(answer.status == 200)
            #expect(answer.text.contains("correct horse"))
            let kept = try #require(try SQLiteSubmissionStore(path: path).all("validations").first)
            #expect(!kept.httpParameters.contains("correct horse"))
            #expect(!kept.formValues.contains("correct horse"))
            #expect(kept.httpParameters.contains("ada_l"))
        }
    }

    /// An upload is kept with its submission, under the name the browser gave without its folders.
    @Test func anUploadIsKeptWithItsSubmission() async throws {
        try await withFolder { folder in
            let path = "\(folder)/formwright.db"
            let status = try await withFormServer(store: "sqlite:\(path)") { port in
                try BrowserSession(port: port, form: "others").postPhoto(
                    filename: #"..\\..\\etc\\passwd.PNG"#, bytes: pngSignature + Array("PNGDATA".utf8)
                ).status
            }
            #expect(status == 200)
            let kept = try #require(try SQLiteSubmissionStore(path: path).all("others").first)
            #expect(
                kept.files == [
                    StoredFile(
                        tag: "photo", filename: "passwd.PNG", contentType: "image/png",
                        bytes: pngSignature + Array("PNGDATA".utf8))
                ])
        }
    }

    /// A store that names nothing this server keeps, or cannot be opened, stops it at start, naming it;
    /// so does asking for both a store and a folder of JSON lines.
    @Test func aStoreThatCannotBeUsedStopsTheServerAtStart() async throws {
        try await withFolder { folder in
            let cases: [(store: String, submissions: String?, message: String)] = [
                ("mysql://db", nil, "--store 'mysql://db' names no store"),
                ("sqlite:", nil, "--store 'sqlite:' names no store"),
                // No host under .invalid resolves (RFC 2606); libpq's message is kept, the password never shown.
                (
                    "postgres://ada:secret@db.invalid/forms", nil,
                    "cannot connect to PostgreSQL at postgres://ada:…@db.invalid/forms: "
                ),
                (
                    "postgres://ada:se@cret@db.invalid/forms", nil,
                    "postgres://ada:…@db.invalid/forms: write @ / ? # in the user or password percent-encoded"
                ),
                ("postgres://ada:se/cret@db.invalid/forms", nil, "postgres://ada:…@db.invalid/forms: write @ / ?"),
                ("postgres://ada:se?cret@db.invalid/forms", nil, "postgres://ada:…@db.invalid/forms: write @ / ?"),
                ("postgres://ada@db.invalid/forms?password=secret", nil, "db.invalid/forms?password=…"),
                ("postgresql://ada@127.0.0.1:1/forms", nil, "postgresql://ada@127.0.0.1:1/forms: connection to server"),
                ("sqlite:/proc/formwright.db", nil, "cannot keep submissions"),
                ("sqlite:\(folder)/a.db", folder, "give --store or --submissions, not both"),
            ]
            for (store, submissions, message) in cases {
                await #expect("\(store)") {
                    try await withFormApp(submissions: submissions, store: store) { _, _ in () }
                } throws: { error in
                    "\(error)".contains(message) && !"\(error)".contains("secret") && !"\(error)".contains("cret")
                }
            }
        }
    }
}

/// Rows that say `store: false`, and passwords, are answered but kept by neither store.
@Suite struct UnkeptRowTests {
    private static let form = """
        id: payment
        sections:
          - rows:
              - { tag: name, type: text, required: true }
              - { tag: card, type: text, store: false }
              - { tag: pin, type: password }
          - multivaluedTag: codes
            multivaluedOptions: [insert]
            rowTemplate: { type: password, title: Code }
        """

    @Test func aRowThatSaysStoreFalseAndAPasswordAreKeptByNeitherStore() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fw-unkept-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("forms"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.form.write(to: folder.appendingPathComponent("forms/payment.yaml"), atomically: true, encoding: .utf8)
        let forms = folder.appendingPathComponent("forms").path
        let body = #"{"name":"Ada","card":"4111 1111 1111 1111","pin":"2718","codes":["3141","5926"]}"#
        let database = folder.appendingPathComponent("formwright.db").path
        let lines = folder.appendingPathComponent("lines").path
        let answers = [
            try await withFormApp(store: "sqlite:\(database)", forms: forms) { _, port in
                try postJSON(port, "payment", body)
            },
            try await withFormApp(submissions: lines, forms: forms) { _, port in try postJSON(port, "payment", body) },
        ]
        for answer in answers {
            #expect(answer.status == 200)
            #expect(answer.text.contains("4111 1111 1111 1111") && answer.text.contains("2718"))
        }
        let kept = try #require(try SQLiteSubmissionStore(path: database).all("payment").first)
        let line = try String(contentsOfFile: "\(lines)/payment.jsonl", encoding: .utf8)
        for text in [kept.httpParameters, kept.formValues, line] {
            #expect(text.contains("Ada"))
            #expect(
                !text.contains("4111") && !text.contains("2718") && !text.contains("\"card\"")
                    && !text.contains("\"pin\""))
            #expect(!text.contains("3141") && !text.contains("\"codes\""))
        }
    }
}

/// A row that says `store: hash` (`Forms/join.yaml`) is kept by both stores as a salted scrypt hash
/// that checks the password and never gives it back; its confirmation (`store: false`) not at all.
@Suite struct HashedRowTests {
    @Test func aHashedPasswordIsKeptAsAHashThatChecksIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fw-hash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let body = #"{"email":"ada@example.com","password":"correct horse battery","confirm":"correct horse battery"}"#
        let database = folder.appendingPathComponent("formwright.db").path
        let lines = folder.appendingPathComponent("lines").path
        let answers = [
            try await withFormApp(store: "sqlite:\(database)") { _, port in try postJSON(port, "join", body) },
            try await withFormApp(submissions: lines) { _, port in try postJSON(port, "join", body) },
        ]
        for answer in answers {
            #expect(answer.status == 200)
            #expect(answer.text.contains("correct horse battery"))
        }
        let kept = try #require(try SQLiteSubmissionStore(path: database).all("join").first)
        let line = try String(contentsOfFile: "\(lines)/join.jsonl", encoding: .utf8)
        var hashes: [String] = []
        for text in [kept.httpParameters, kept.formValues, line] {
            #expect(text.contains("ada@example.com"))
            #expect(!text.contains("correct horse") && !text.contains("\"confirm\""))
            hashes += text.matches(of: /\$scrypt\$ln=15,r=8,p=1\$[A-Za-z0-9+\/]{22}\$[A-Za-z0-9+\/]{43}/).map {
                String($0.output)
            }
        }
        #expect(hashes.count == 4)  // one in each payload of each store
        #expect(hashes[0] == hashes[1])  // one hash a submission
        #expect(hashes[0] != hashes[2])  // salted: the same password hashed again differs
        for hash in hashes {
            #expect(PasswordHash.verify("correct horse battery", against: hash))
            #expect(!PasswordHash.verify("correct horse batterY", against: hash))
        }
        #expect(!PasswordHash.verify("x", against: "$scrypt$ln=40,r=8,p=1$AAAA$AAAA"))
    }
}

/// The thank-you page names the submission a store kept, and nothing else a link puts there.
@Suite struct ThankYouReferenceTests {
    @Test func theThankYouPageNamesTheKeptSubmission() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fw-ref-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = "sqlite:" + folder.appendingPathComponent("formwright.db").path
        let (location, page, chinese, forged) = try await withFormServer(store: store) { port in
            let post = try BrowserSession(port: port, form: "pets").post(
                "pets", [("has_pets", "on"), ("pet_names", "Rex")])
            let location = post.header("Location") ?? ""
            return (
                location, try request(port, location),
                try request(port, location, headers: ["Accept-Language": "zh-CN"]),
                try request(port, "/forms/pets/thanks?ref=%3Cb%3Ehi%3C%2Fb%3E")
            )
        }
        let id = try #require(location.firstMatch(of: /^\/forms\/pets\/thanks\?ref=([0-9A-Z]{26})$/)).1
        #expect(page.status == 200)
        #expect(page.text.contains(#"<p class="fw-reference">Your reference: \#(id)</p>"#))
        #expect(chinese.text.contains("您的编号：\(id)"))
        #expect(forged.status == 200)
        #expect(!forged.text.contains("fw-reference") && !forged.text.contains("<b>"))
        #expect(
            try SQLiteSubmissionStore(path: String(store.dropFirst("sqlite:".count))).all("pets")
                .map(\.id.description) == [String(id)])
    }
}

extension SubmissionDatabase {
    /// Every submission to `formID`, newest first, with its files.
    func all(_ formID: String) throws -> [StoredSubmission] {
        try submissions(formID: formID, limit: 1_000_000).compactMap { try submission(formID: formID, id: $0.id) }
    }
}
