import Foundation
import HTTPTestClient
import TestProcesses

#if canImport(Glibc)
    import Glibc
#endif

/// The signing secret the delivery tests give their webhooks, `whsec_` and 32 bytes in base64.
let hookSecret = "whsec_" + Data((0..<32).map { UInt8($0 * 7 % 256) }).base64EncodedString()

/// Tests/Deliveries/webhook_receiver.py on loopback: checks each delivery's signature with Python's
/// own HMAC, records it, and answers as its mode says. Stopped with the object.
final class WebhookReceiver: @unchecked Sendable {
    let port: Int
    private let process: FormwrightProcess

    /// A receiver on `port` (0: a free one).
    init(port: Int = 0) throws {
        process = try FormwrightProcess(
            [
                repositoryRoot.appendingPathComponent("Tests/Deliveries/webhook_receiver.py").path, String(port),
                hookSecret,
            ],
            binary: URL(fileURLWithPath: "/usr/bin/python3"))
        let deadline = Date().addingTimeInterval(10)
        var found: Int?
        while found == nil, Date() < deadline {
            found = process.text.split(separator: "\n").first.flatMap { Int($0) }
            if found == nil { usleep(20_000) }
        }
        guard let found else { throw ClientError(description: "the webhook receiver did not start: \(process.text)") }
        self.port = found
    }

    /// The URL form descriptors deliver to.
    var url: String { "http://127.0.0.1:\(port)/hooks/contact" }

    /// How later deliveries are answered: `ok`, `fail`, `slow`, `redirect` or `big`.
    func answer(_ mode: String) throws {
        _ = try request(port, "POST", "/_mode", headers: [:], body: mode)
    }

    /// Every delivery received so far, in order.
    func received() throws -> [[String: Any]] {
        let answer = try request(port, "/_received")
        return (try JSONSerialization.jsonObject(with: Data(answer.body)) as? [[String: Any]]) ?? []
    }

    /// Stops it at once, as a receiver that goes down does.
    func kill() { process.signal(SIGKILL) }
}

/// Python's aiosmtpd on loopback, keeping every message it is sent in a Maildir. Stopped with the object.
final class MailSink: @unchecked Sendable {
    let port: Int
    let folder: URL
    private let process: FormwrightProcess

    init() throws {
        folder = try temporaryFolder()
        for part in ["tmp", "new", "cur"] {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent(part), withIntermediateDirectories: true)
        }
        port = try freePort()
        process = try FormwrightProcess(
            ["-m", "aiosmtpd", "-n", "-l", "127.0.0.1:\(port)", "-c", "aiosmtpd.handlers.Mailbox", folder.path],
            binary: URL(fileURLWithPath: "/usr/bin/python3"))
        let deadline = Date().addingTimeInterval(10)
        while (try? RawConnection(port: port)) == nil {
            guard Date() < deadline else { throw ClientError(description: "aiosmtpd did not start: \(process.text)") }
            usleep(50_000)
        }
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// Every message received so far.
    func messages() -> [Mail] {
        let new = folder.appendingPathComponent("new")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: new.path)) ?? []
        return names.sorted().compactMap { name in
            (try? String(contentsOf: new.appendingPathComponent(name), encoding: .utf8)).map(Mail.init)
        }
    }
}

/// A message as the sink kept it: its headers (the envelope's recipient in `X-RcptTo`), and its text
/// and HTML parts decoded.
struct Mail {
    let headers: [String: String]
    let text: String
    let html: String

    init(_ raw: String) {
        let lines = raw.replacingOccurrences(of: "\r\n", with: "\n").split(
            separator: "\n", omittingEmptySubsequences: false)
        var headers: [String: String] = [:]
        var index = 0
        while index < lines.count, !lines[index].isEmpty {
            let line = lines[index]
            if let colon = line.firstIndex(of: ":") {
                headers[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            index += 1
        }
        self.headers = headers
        // Each part: its headers, a blank line, base64 lines, up to the next boundary.
        var parts: [String: String] = [:]
        var type: String?
        var body = ""
        var inBody = false
        for line in lines[index...] {
            if line.hasPrefix("--formwright-") {
                if let type { parts[type] = String(decoding: Data(base64Encoded: body) ?? Data(), as: UTF8.self) }
                type = nil
                body = ""
                inBody = false
            } else if line.hasPrefix("Content-Type: ") {
                type = String(line.dropFirst("Content-Type: ".count).split(separator: ";")[0])
            } else if line.isEmpty {
                inBody = type != nil
            } else if inBody {
                body += line
            }
        }
        text = parts["text/plain"] ?? ""
        html = parts["text/html"] ?? ""
    }
}

/// A loopback port nothing listens on now.
func freePort() throws -> Int {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
    }
    guard bound == 0 else { throw ClientError(description: "no free port") }
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// A forms folder with the contact form, which delivers to `webhook` (signed with `CONTACT_HOOK_SECRET`)
/// and, with `mail`, by e-mail to the team and to the address typed; `editable` when told; removed by
/// the caller.
func contactForms(webhook: String, mail: Bool, editable: Bool = false) throws -> URL {
    let folder = try temporaryFolder()
    var deliveries = #"  - { webhook: "\#(webhook)", secretEnv: CONTACT_HOOK_SECRET }"#
    if mail { deliveries += "\n  - { email: team@example.org }\n  - { confirmTo: email }" }
    try """
    id: contact
    title: Contact us
    editable: \(editable)
    deliver:
    \(deliveries)
    sections:
      - rows:
          - { tag: name, type: name, title: Your name, required: true }
          - { tag: email, type: email, title: Email, required: true }
          - { tag: message, type: textView, title: Message }
          - { tag: pin, type: password, title: PIN, store: hash }
    """.write(to: folder.appendingPathComponent("contact.yaml"), atomically: true, encoding: .utf8)
    return folder
}

/// A JSON post of the contact form, numbered `number`, on a connection that closes after it; with a PIN
/// (kept as a scrypt hash, tens of milliseconds each) or without.
func contactPost(_ number: Int, name: String? = nil, pin: Bool = false) -> String {
    let json =
        #"{"name":"\#(name ?? "Ada \(number)")","email":"ada\#(number)@example.org","message":"line one\nline two""#
        + (pin ? #","pin":"1234"}"# : "}")
    return "POST /forms/contact HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(json.utf8.count)\r\nConnection: close\r\n\r\n\(json)"
}

/// Waits, up to `seconds`, until `done` holds; whether it did.
func eventually(seconds: Double, _ done: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try done() { return true }
        usleep(50_000)
    }
    return try done()
}
