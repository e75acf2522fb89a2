import HTTPServer

/// One access-log line: `GET /forms/event 200 6144B 0.42ms 127.0.0.1:51022`.
///
/// Written byte by byte into one buffer: a line per request is on every request's path, and string
/// interpolation of its seven parts cost more than serving a small static file.
struct AccessLogLine: CustomStringConvertible {
    let record: AccessRecord

    init(_ record: AccessRecord) { self.record = record }

    var description: String {
        var line: [UInt8] = []
        // Enough for a typical line, so it is built in one allocation.
        line.reserveCapacity(128 + min(record.target.utf8.count, Self.targetCap))
        line.append(contentsOf: record.method.utf8)
        line.append(UInt8(ascii: " "))
        Self.appendPrintable(record.target, to: &line)
        line.append(UInt8(ascii: " "))
        if let status = record.status { Self.appendDecimal(status, to: &line) } else { line.append(UInt8(ascii: "-")) }
        line.append(UInt8(ascii: " "))
        Self.appendDecimal(record.bytes, to: &line)
        line.append(contentsOf: "B ".utf8)
        Self.appendMilliseconds(record.duration, to: &line)
        if let peer = record.remoteAddress {
            line.append(UInt8(ascii: " "))
            peer.appendDescription(to: &line)
        }
        if let reason = record.abortReason {
            line.append(contentsOf: " (".utf8)
            line.append(contentsOf: reason.utf8)
            line.append(UInt8(ascii: ")"))
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// Targets longer than this many bytes are cut (with `…`): a log line stays a line.
    static let targetCap = 512

    /// `0.42ms`.
    static func milliseconds(_ duration: Duration) -> String {
        var text: [UInt8] = []
        appendMilliseconds(duration, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// The target with control characters escaped, so a request cannot forge log lines.
    static func printable(_ target: String) -> String {
        var text: [UInt8] = []
        appendPrintable(target, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    private static func appendMilliseconds(_ duration: Duration, to line: inout [UInt8]) {
        let (seconds, attoseconds) = duration.components
        let hundredths = Int(seconds) * 100_000 + Int(attoseconds / 10_000_000_000_000)
        appendDecimal(hundredths / 100, to: &line)
        line.append(UInt8(ascii: "."))
        let fraction = hundredths % 100
        line.append(UInt8(ascii: "0") + UInt8(fraction / 10))
        line.append(UInt8(ascii: "0") + UInt8(fraction % 10))
        line.append(contentsOf: "ms".utf8)
    }

    /// Control bytes (C0 and DEL) become `\xNN`; the cut never splits a UTF-8 sequence.
    private static func appendPrintable(_ target: String, to line: inout [UInt8]) {
        var target = target
        // The usual target is short and plain: one copy, no byte-by-byte escaping.
        let plain = target.withUTF8 { bytes in
            guard bytes.count <= targetCap, !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return false }
            line.append(contentsOf: bytes)
            return true
        }
        if plain { return }
        let hex = Array("0123456789abcdef".utf8)
        var written = 0
        for byte in target.utf8 {
            if written >= targetCap, byte & 0xC0 != 0x80 {
                line.append(contentsOf: "…".utf8)
                return
            }
            written += 1
            if byte < 0x20 || byte == 0x7F {
                line.append(contentsOf: [
                    UInt8(ascii: "\\"), UInt8(ascii: "x"), hex[Int(byte >> 4)], hex[Int(byte & 15)],
                ])
            } else {
                line.append(byte)
            }
        }
    }

    static func appendDecimal(_ value: Int, to line: inout [UInt8]) {
        guard value >= 0 else {
            line.append(UInt8(ascii: "-"))
            appendDecimal(0 - value, to: &line)
            return
        }
        if value >= 10 { appendDecimal(value / 10, to: &line) }
        line.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}
