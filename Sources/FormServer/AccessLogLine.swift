import FormStore
import HTTPServer

/// One access-log line: `GET /forms/event 200 6144B 0.42ms 127.0.0.1:51022`.
///
/// Written byte by byte straight into the string's storage: a line per request is on every request's
/// path, and interpolating its seven parts would cost more than serving a small static file.
struct AccessLogLine: CustomStringConvertible {
    let record: AccessRecord
    /// The record's target as the line writes it (`withoutSecrets`).
    private let target: String

    init(_ record: AccessRecord) {
        self.record = record
        target = Self.withoutSecrets(record.target)
    }

    var description: String {
        String(unsafeUninitializedCapacity: capacity) { write(into: $0) }
    }

    /// Calls `body` with the line's bytes, written on the stack: `description` without a string.
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            body(UnsafeBufferPointer(rebasing: buffer[..<write(into: buffer)]))
        }
    }

    /// An upper bound of the line's length: every kept method and target byte may become `\xNN`, and
    /// each may end in `…`; numbers and the peer are short.
    private var capacity: Int {
        LogText.capacity(record.method.utf8.count, cap: Self.methodCap)
            + LogText.capacity(target.utf8.count, cap: Self.targetCap) + (record.abortReason?.utf8.count ?? 0)
            + SocketAddress.maximumDescriptionLength + 96
    }

    /// Writes the line at the start of `buffer` (of at least `capacity` bytes); returns its length.
    private func write(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var line = LineWriter(buffer: buffer)
        // The method is escaped and cut like the target: one that is no token (`G\x1b[31mET`, refused
        // with a 400) is logged all the same, and must not reach a terminal as an escape sequence.
        line.appendPrintable(record.method, cap: Self.methodCap)
        line.append(UInt8(ascii: " "))
        line.appendPrintable(target, cap: Self.targetCap)
        line.append(UInt8(ascii: " "))
        if let status = record.status { line.appendDecimal(status) } else { line.append(UInt8(ascii: "-")) }
        line.append(UInt8(ascii: " "))
        line.appendDecimal(record.bytes)
        line.append(UInt8(ascii: "B"))
        line.append(UInt8(ascii: " "))
        Self.appendMilliseconds(nanoseconds: record.nanoseconds, to: &line)
        if let peer = record.remoteAddress {
            line.append(UInt8(ascii: " "))
            line.append(peer)
        }
        if let reason = record.abortReason { Self.append(reason: reason, to: &line) }
        return line.count
    }

    /// ` (reason)`: out of line, as a request that completes has none.
    @inline(never)
    private static func append(reason: String, to line: inout LineWriter) {
        line.append(" (")
        line.append(reason)
        line.append(UInt8(ascii: ")"))
    }

    /// `target` with each edit link in its query cut to the submission's id (`?edit=<id>…`): more people
    /// read a log than may see and change the submissions it names. A parameter is an edit link when its
    /// name decodes to `edit`, however it is percent-encoded, as the server reads it; its first 26 bytes
    /// as sent hold no more than the id, whatever is encoded. The same string, with no work, for a
    /// target whose query cannot name one.
    static func withoutSecrets(_ target: String) -> String {
        guard let question = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return target }
        let query = target[target.index(after: question)...]
        guard query.contains("%") || query.contains("dit=") else { return target }
        var cut = false
        let parameters = query.split(separator: "&", omittingEmptySubsequences: false).map { part -> Substring in
            guard let equals = part.firstIndex(of: "="),
                QueryParameters.parse(urlencoded: Array(part[..<equals].utf8))?.pairs.first?.name
                    == EditLinks.parameter
            else { return part }
            let value = part[part.index(after: equals)...]
            guard value.utf8.count > SubmissionID.length else { return part }
            cut = true
            return part[...equals] + value.prefix(SubmissionID.length) + "…"
        }
        return cut ? target[...question] + parameters.joined(separator: "&") : target
    }

    /// Targets longer than this many bytes are cut (with `…`): a log line stays a line.
    static let targetCap = 512
    /// Methods longer than this are cut too: the longest registered one (`UPDATEREDIRECTREF`) has 17.
    static let methodCap = 40

    /// `0.42ms`.
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds)) / 1_000_000_000
        return String(unsafeUninitializedCapacity: 32) { buffer in
            var line = LineWriter(buffer: buffer)
            appendMilliseconds(nanoseconds: nanoseconds, to: &line)
            return line.count
        }
    }

    /// `text` with control characters escaped and cut after `cap` bytes, as the line writes it.
    static func printable(_ text: String, cap: Int = targetCap) -> String { LogText.printable(text, cap: cap) }

    private static func appendMilliseconds(nanoseconds: UInt64, to line: inout LineWriter) {
        let hundredths = Int(clamping: nanoseconds / 10_000)
        line.appendDecimal(hundredths / 100)
        line.append(UInt8(ascii: "."))
        let fraction = hundredths % 100
        line.append(UInt8(ascii: "0") + UInt8(fraction / 10))
        line.append(UInt8(ascii: "0") + UInt8(fraction % 10))
        line.append(UInt8(ascii: "m"))
        line.append(UInt8(ascii: "s"))
    }
}

/// Appends bytes to a buffer its caller sized for the whole line.
private struct LineWriter {
    let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    init(buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

    mutating func append(_ byte: UInt8) {
        buffer[count] = byte
        count += 1
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        (buffer.baseAddress! + count).update(from: base, count: bytes.count)
        count += bytes.count
    }

    /// Appends `text` escaped and cut after `cap` bytes (`LogText`).
    mutating func appendPrintable(_ text: String, cap: Int) {
        var text = text
        text.withUTF8 { count = LogText.write($0, cap: cap, into: buffer, at: count) }
    }

    /// Appends a peer's `description`, written in place.
    mutating func append(_ peer: SocketAddress) {
        count += peer.writeDescription(to: UnsafeMutableBufferPointer(rebasing: buffer[count...]))
    }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    mutating func appendDecimal(_ value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        count = DecimalDigits.write(value.magnitude, into: buffer, at: count)
    }
}
