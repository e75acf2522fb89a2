import CCurl
import Foundation

/// One message on its way: a libcurl easy handle and everything it points at, alive until it is done.
/// Used by the courier's one thread.
final class Transfer {
    /// The most an answer's body may hold: past it the transfer stops, a failed attempt, so a receiver
    /// that answers with megabytes costs neither time nor memory.
    static let answerLimit = 64 * 1024
    /// How much of an answer's body is kept for the log.
    static let keptAnswer = 200

    let handle: UnsafeMutableRawPointer
    /// The position of the message in its batch.
    let position: Int
    private var lists: [UnsafeMutablePointer<curl_slist>] = []
    /// The bytes sent (a body, or a mail message), copied where they cannot move.
    private let payload: UnsafeMutableBufferPointer<UInt8>
    /// How much of `payload` libcurl has read (a mail message is read, a body is pointed at).
    private var sent = 0
    /// How much of the answer came, and its start.
    private var received = 0
    private var answerStart: [UInt8] = []
    /// libcurl's own words for an error, written by it.
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private let started = ContinuousClock.now
    private let isMail: Bool

    /// A transfer of `outbound`, the `position`-th of its batch, given up after `timeout`.
    init(_ outbound: Outbound, position: Int, timeout: Duration) throws(DeliveryError) {
        guard let handle = curl_easy_init() else { throw DeliveryError("libcurl could not make a transfer") }
        self.handle = handle
        self.position = position
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(to: 0)
        let bytes: [UInt8]
        switch outbound {
        case .post(_, _, let body): bytes = body
        case .mail(_, _, _, let message): bytes = message
        }
        payload = .allocate(capacity: max(bytes.count, 1))
        _ = payload.initialize(from: bytes)
        isMail = if case .mail = outbound { true } else { false }
        let context = Unmanaged.passUnretained(self).toOpaque()
        // At least a millisecond: libcurl reads 0 as no limit at all.
        let milliseconds = max(
            1, Int(timeout.components.seconds * 1000) + Int(timeout.components.attoseconds / 1_000_000_000_000_000))
        _ = CCurl_setPointer(handle, CURLOPT_PRIVATE, context)
        _ = CCurl_setPointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)
        _ = CCurl_setLong(handle, CURLOPT_NOSIGNAL, 1)
        _ = CCurl_setLong(handle, CURLOPT_TIMEOUT_MS, milliseconds)
        _ = CCurl_setLong(handle, CURLOPT_CONNECTTIMEOUT_MS, min(milliseconds, 5_000))
        _ = CCurl_setCallback(handle, CURLOPT_WRITEFUNCTION, Self.write)
        _ = CCurl_setPointer(handle, CURLOPT_WRITEDATA, context)
        switch outbound {
        case .post(let url, let headers, let body):
            _ = CCurl_setString(handle, CURLOPT_URL, url)
            _ = CCurl_setString(handle, CURLOPT_PROTOCOLS_STR, "http,https")
            _ = CCurl_setLong(handle, CURLOPT_FOLLOWLOCATION, 0)
            _ = CCurl_setString(handle, CURLOPT_USERAGENT, "Formwright")
            _ = CCurl_setLong(handle, CURLOPT_POST, 1)
            _ = CCurl_setPointer(handle, CURLOPT_POSTFIELDS, payload.baseAddress)
            _ = CCurl_setSize(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            // No `Expect: 100-continue`: a webhook's body is small, and the wait costs a round trip.
            _ = CCurl_setList(handle, CURLOPT_HTTPHEADER, list(headers.map { "\($0.name): \($0.value)" } + ["Expect:"]))
        case .mail(let server, let from, let to, _):
            _ = CCurl_setString(handle, CURLOPT_URL, server.url)
            _ = CCurl_setString(handle, CURLOPT_PROTOCOLS_STR, "smtp,smtps")
            _ = CCurl_setString(handle, CURLOPT_MAIL_FROM, "<\(from)>")
            _ = CCurl_setList(handle, CURLOPT_MAIL_RCPT, list(to.map { "<\($0)>" }))
            // Credentials never go in clear: with them, a server that offers no STARTTLS is refused.
            let insist = server.requireTLS || server.username != nil || server.password != nil
            _ = CCurl_setLong(handle, CURLOPT_USE_SSL, Int(insist ? CURLUSESSL_ALL.rawValue : CURLUSESSL_TRY.rawValue))
            if let username = server.username { _ = CCurl_setString(handle, CURLOPT_USERNAME, username) }
            if let password = server.password { _ = CCurl_setString(handle, CURLOPT_PASSWORD, password) }
            // A connection per message: a server left mid-dialogue by a failed one would refuse the next.
            _ = CCurl_setLong(handle, CURLOPT_FORBID_REUSE, 1)
            _ = CCurl_setLong(handle, CURLOPT_UPLOAD, 1)
            _ = CCurl_setSize(handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(bytes.count))
            _ = CCurl_setCallback(handle, CURLOPT_READFUNCTION, Self.read)
            _ = CCurl_setPointer(handle, CURLOPT_READDATA, context)
        }
    }

    deinit {
        curl_easy_cleanup(handle)
        for list in lists { curl_slist_free_all(list) }
        payload.deallocate()
        errorBuffer.deallocate()
    }

    /// How the transfer ended, given libcurl's `result`.
    func outcome(_ result: CURLcode) -> Outcome {
        let elapsed = ContinuousClock.now - started
        let milliseconds =
            Int(elapsed.components.seconds * 1000) + Int(elapsed.components.attoseconds / 1_000_000_000_000_000)
        var code = 0
        _ = CCurl_getLong(handle, CURLINFO_RESPONSE_CODE, &code)
        let status = code == 0 ? nil : code
        guard result == CURLE_OK else {
            if result == CURLE_WRITE_ERROR, received > Self.answerLimit {
                return Outcome(
                    status: status, error: "the answer was larger than \(Self.answerLimit / 1024) KiB",
                    milliseconds: milliseconds)
            }
            let detail = String(cString: errorBuffer)
            let text = detail.isEmpty ? String(cString: curl_easy_strerror(result)) : detail
            return Outcome(status: status, error: text, milliseconds: milliseconds)
        }
        if !isMail, !(200..<300).contains(code) {
            let answer = String(decoding: answerStart, as: UTF8.self).split(whereSeparator: \.isNewline).joined(
                separator: " ")
            return Outcome(
                status: status, error: "HTTP \(code)" + (answer.isEmpty ? "" : ": \(answer)"),
                milliseconds: milliseconds)
        }
        return Outcome(status: status, error: nil, milliseconds: milliseconds)
    }

    /// `lines` as a libcurl list, freed with the transfer.
    private func list(_ lines: [String]) -> UnsafeMutablePointer<curl_slist>? {
        var list: UnsafeMutablePointer<curl_slist>?
        for line in lines { list = curl_slist_append(list, line) }
        if let list { lists.append(list) }
        return list
    }

    /// Takes an answer's bytes: counts them, keeps the start, and stops the transfer past the limit.
    private static let write: CCurl_DataCallback = { buffer, size, count, context in
        guard let buffer, let context else { return 0 }
        let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        let bytes = size * count
        transfer.received += bytes
        guard transfer.received <= answerLimit else { return 0 }
        let room = keptAnswer - transfer.answerStart.count
        if room > 0 {
            buffer.withMemoryRebound(to: UInt8.self, capacity: bytes) {
                transfer.answerStart += UnsafeBufferPointer(start: $0, count: min(room, bytes))
            }
        }
        return bytes
    }

    /// Gives libcurl the next bytes of a mail message.
    private static let read: CCurl_DataCallback = { buffer, size, count, context in
        guard let buffer, let context else { return 0 }
        let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        let length = min(size * count, transfer.payload.count - transfer.sent)
        guard length > 0 else { return 0 }
        buffer.withMemoryRebound(to: UInt8.self, capacity: length) {
            $0.update(from: transfer.payload.baseAddress! + transfer.sent, count: length)
        }
        transfer.sent += length
        return length
    }
}

/// Why a message could not even be started.
public struct DeliveryError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
