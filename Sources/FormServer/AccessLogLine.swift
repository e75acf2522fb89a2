import HTTPServer

/// One access-log line: `GET /forms/event 200 6144B 0.42ms 127.0.0.1:51022`.
struct AccessLogLine: CustomStringConvertible {
    let record: AccessRecord

    init(_ record: AccessRecord) { self.record = record }

    var description: String {
        let status = record.status.map(String.init) ?? "-"
        var line = "\(record.method) \(Self.printable(record.target)) \(status) \(record.bytes)B "
        line += Self.milliseconds(record.duration)
        if let peer = record.remoteAddress { line += " \(peer)" }
        if let reason = record.abortReason { line += " (\(reason))" }
        return line
    }

    /// `0.42ms`, formatted by hand: String(format:) goes through NSString, too slow for a line per request.
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let hundredths = Int(seconds) * 100_000 + Int(attoseconds / 10_000_000_000_000)
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)ms"
    }

    /// The target with control characters escaped, so a request cannot forge log lines.
    static func printable(_ target: String) -> String {
        let capped = target.count > 512 ? String(target.prefix(512)) + "…" : target
        let isControl = { (scalar: Unicode.Scalar) in scalar.value < 0x20 || scalar.value == 0x7f }
        guard capped.unicodeScalars.contains(where: isControl) else { return capped }
        return capped.unicodeScalars.map { scalar in
            guard isControl(scalar) else { return String(scalar) }
            return "\\x" + (scalar.value < 16 ? "0" : "") + String(scalar.value, radix: 16)
        }.joined()
    }
}
