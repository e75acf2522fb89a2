import FormStore
import Foundation
import HTTPTestClient
import Testing

@testable import FormServer

/// A valid file posted beside an invalid row is held by the store: the page shown again names it, and
/// the next post that leaves the file input empty has it (`HeldUploads`), for this reader only.
@Suite struct HeldUploadTests {
    private static let photo = pngSignature + Array("PNGDATA".utf8)

    /// Posts the others form multipart from `session`: `count` tickets, the photo as `file` (an empty,
    /// nameless part when nil, as a browser sends an input left empty), and `held` as `_held.photo`.
    private static func post(
        _ session: BrowserSession, count: Int, file: (name: String, bytes: [UInt8])?, held: String? = nil
    ) throws -> TestResponse {
        let boundary = "----fw"
        var fields = [("_csrf", session.token), ("count", String(count)), ("volume", "40")]
        if let held { fields.append(("_held.photo", held)) }
        var body: [UInt8] = []
        for (name, value) in fields {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        body += Array(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"\(file?.name ?? "")\"\r\n".utf8
        )
        body += Array("Content-Type: \(file == nil ? "application/octet-stream" : "image/png")\r\n\r\n".utf8)
        body += (file?.bytes ?? []) + Array("\r\n--\(boundary)--\r\n".utf8)
        return try request(
            session.port, "POST", "/forms/others",
            headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)", "Cookie": session.cookie],
            bytes: body)
    }

    @Test func aValidFileSurvivesARefusedPostForItsReaderOnly() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fw-held-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("formwright.db").path
        try await withFormServer(store: "sqlite:\(path)") { port in
            let session = try BrowserSession(port: port, form: "others")
            // Eleven tickets is one too many: refused, the photo held and named.
            let refused = try Self.post(session, count: 11, file: ("cat.png", Self.photo))
            #expect(refused.status == 422)
            let held = try #require(BrowserSession.hiddenValue(named: "_held.photo", in: refused.text))
            #expect(refused.text.contains("cat.png (1 KB) is kept and will be sent with the form") == false)
            #expect(
                refused.text.contains("cat.png (\(Self.photo.count) bytes) is kept and will be sent with the form."))
            #expect(refused.text.contains(#"aria-describedby="others-photo-held""#) || refused.text.contains("-held\""))

            // Another reader cannot claim it: the signature binds it to the first one's cookie.
            let other = try BrowserSession(port: port, form: "others")
            #expect(try Self.post(other, count: 2, file: nil, held: held).status == 303)
            // Nor can a reference whose signature was changed.
            #expect(try Self.post(session, count: 2, file: nil, held: held + "x").status == 303)
            // The reader's next post, the input left empty, has it.
            #expect(try Self.post(session, count: 2, file: nil, held: held).status == 303)
            // A new file chosen replaces it.
            let newer = Self.photo + Array("NEWER".utf8)
            #expect(try Self.post(session, count: 3, file: ("dog.png", newer), held: held).status == 303)
        }
        let store = try SQLiteSubmissionStore(path: path)
        let kept = try store.submissions(formID: "others", limit: 10).reversed().map {
            try #require(try store.submission(formID: "others", id: $0.id))
        }
        #expect(kept.count == 4)
        #expect(kept.map { $0.files.map(\.filename) } == [[], [], ["cat.png"], ["dog.png"]])
        #expect(kept[2].files.first?.bytes == Self.photo)
        #expect(kept[3].files.first?.bytes == Self.photo + Array("NEWER".utf8))
    }
}
