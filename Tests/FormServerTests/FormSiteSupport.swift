import FormModel
import Foundation
import HTTPServer
import HTTPTestClient
import Logging

@testable import FormServer

/// A running FormServerApp on a loopback port, serving the example forms, shut down after `body`.
func withFormServer<T: Sendable>(
    hooks: FormHooks = exampleHooks(), explain: Bool = false, maxBody: Int? = nil, maxFile: Int = 1 << 20,
    submissions: String? = nil, store: String? = nil, _ body: @escaping @Sendable (Int) throws -> T
) async throws -> T {
    try await withFormApp(
        hooks: hooks, explain: explain, maxBody: maxBody, maxFile: maxFile, submissions: submissions, store: store
    ) { _, port in
        try body(port)
    }
}

/// `withFormServer`, with the app itself handed to `body` too; `logger` gets the app's log lines.
/// `submissions` is the folder valid submissions are kept in, `store` the database (none when nil). A
/// `maxBody` given stands,
/// as `--max-body` does; without one, the default limit grows to carry the forms' files. `forms` is the
/// folder of descriptors served (nil: the repository's `Forms/`); `checkingBudget`, the steps a
/// submission's checks may take (nil: the server's default).
func withFormApp<T: Sendable>(
    hooks: FormHooks = exampleHooks(), explain: Bool = false, maxBody: Int? = nil, maxFile: Int = 1 << 20,
    submissions: String? = nil, store: String? = nil, forms: String? = nil, checkingBudget: Int? = nil,
    adminSession: Duration? = nil, logger: Logger = Logger(label: "formwright"),
    _ body: @escaping @Sendable (FormServerApp, Int) throws -> T
) async throws -> T {
    var configuration = FormServerConfiguration()
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    configuration.formsFolder = forms ?? root.appendingPathComponent("Forms").path
    configuration.publicFolder = root.appendingPathComponent("Public").path
    configuration.server.host = "127.0.0.1"
    configuration.server.port = 0
    configuration.server.threads = 2
    configuration.server.perIPConnectionLimit = 0
    if let maxBody {
        configuration.server.maxBodySize = maxBody
        configuration.bodyLimitFitsUploads = false
    }
    configuration.accessLog = false
    configuration.explain = explain
    configuration.maximumFileSize = maxFile
    configuration.secret = "test secret"
    configuration.submissionsFolder = submissions
    configuration.store = store
    if let checkingBudget { configuration.checkingBudget = checkingBudget }
    if let adminSession { configuration.adminSessionLifetime = adminSession }
    let app = try FormServerApp(configuration: configuration, hooks: hooks, logger: logger)
    try app.start()
    let port = app.server.port
    let outcome: Result<T, any Error>
    do { outcome = .success(try await offPool { try body(app, port) }) } catch { outcome = .failure(error) }
    // Off the pool, as `withServer` does: a shutdown blocks while requests finish.
    _ = try? await offPool { app.shutdown(gracePeriod: .seconds(3)) }
    return try outcome.get()
}

/// The hooks the example forms need: the validations form's invitation-code validator.
func exampleHooks() -> FormHooks {
    var hooks = FormHooks()
    hooks.validator("invitationCode") { $0.description.hasPrefix("FW-") ? nil : "Invitation codes start with FW-" }
    return hooks
}

/// A browser's session with one form: the cookie and token a GET of the page hands out.
struct BrowserSession {
    let port: Int
    let cookie: String
    let token: String

    /// Opens `/forms/{id}` like a browser and keeps the CSRF cookie and the page's token.
    init(port: Int, form: String) throws {
        self.port = port
        let page = try request(port, "/forms/\(form)")
        guard page.status == 200, let setCookie = page.header("Set-Cookie"),
            let token = Self.hiddenValue(named: "_csrf", in: page.text)
        else { throw ClientError(description: "the page of \(form) gave no CSRF cookie or token") }
        cookie = String(setCookie.split(separator: ";")[0])
        self.token = token
    }

    /// Posts `pairs` urlencoded, with the session's cookie and token unless told otherwise.
    func post(
        _ form: String, _ pairs: [(String, String)], token: String? = nil, accept: String = "text/html",
        extraHeaders: [String: String] = [:]
    ) throws -> TestResponse {
        let all = [("_csrf", token ?? self.token)] + pairs
        let body = all.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
        var headers = [
            "Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie, "Accept": accept,
        ]
        headers.merge(extraHeaders) { _, new in new }
        return try request(port, "POST", "/forms/\(form)", headers: headers, body: body)
    }

    /// Posts the others form multipart, as a browser sends a file: two tickets, volume 40, and `bytes`
    /// as the `photo` row's PNG named `filename` (escaped as a browser escapes it in the header),
    /// asking for JSON.
    func postPhoto(filename: String, bytes: [UInt8]) throws -> TestResponse {
        let boundary = "----fw"
        var body = ""
        for (name, value) in [("_csrf", token), ("count", "2"), ("volume", "40")] {
            body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
        }
        body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"\(filename)\"\r\n"
        body += "Content-Type: image/png\r\n\r\n"
        return try request(
            port, "POST", "/forms/others",
            headers: [
                "Content-Type": "multipart/form-data; boundary=\(boundary)", "Cookie": cookie,
                "Accept": "application/json",
            ], bytes: Array(body.utf8) + bytes + Array("\r\n--\(boundary)--\r\n".utf8))
    }

    static func hiddenValue(named name: String, in html: String) -> String? {
        guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
        let rest = html[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }
}

/// `application/x-www-form-urlencoded` encoding of one name or value.
func encode(_ text: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._*")
    return text.addingPercentEncoding(withAllowedCharacters: allowed)!.replacingOccurrences(of: "%20", with: "+")
}

/// POSTs a JSON body to `/forms/{id}` (no CSRF token: JSON bodies are exempt).
func postJSON(
    _ port: Int, _ form: String, _ json: String, path: String? = nil, headers: [String: String] = [:]
)
    throws -> TestResponse
{
    var all = ["Content-Type": "application/json", "Accept": "application/json"]
    all.merge(headers) { _, new in new }
    return try request(port, "POST", path ?? "/forms/\(form)", headers: all, body: json)
}

let validEventPairs: [(String, String)] = [
    ("title", "Team lunch"), ("location", "Canteen"), ("starts", "2026-11-23T12:00"), ("ends", "2026-11-23T13:00"),
    ("repeat", "never"), ("alert", "15m"), ("second-alert", "5m"), ("url", "https://example.com"),
    ("email", "team@example.com"), ("guests", "8"), ("notes", "Bring cake"),
]

let validEventJSON =
    #"{"title":"Team lunch","starts":"2026-11-23T12:00","ends":"2026-11-23T13:00","alert":"15m","second-alert":"5m","guests":8}"#
