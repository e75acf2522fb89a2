import Foundation

/// An e-mail as SMTP carries it (RFC 5322 and MIME): a plain-text and an HTML part of the same
/// content, both UTF-8 in base64, so no line of an answer can be read as a header or end the message.
enum MailMessage {
    /// The message of `content` from `from` to `to`, with `id` (a job's id) as its `Message-ID`.
    static func bytes(from: String, to: [String], content: MailContent, id: String, date: Date) -> [UInt8] {
        let boundary = "formwright-\(id)"
        var lines = [
            "From: \(from)", "To: \(to.joined(separator: ", "))", "Subject: \(encodedHeader(content.subject))",
            "Date: \(dateText(date))", "Message-ID: <\(id)@formwright>", "MIME-Version: 1.0",
            "Content-Type: multipart/alternative; boundary=\"\(boundary)\"", "",
        ]
        for (type, text) in [("text/plain", content.text), ("text/html", content.html)] {
            lines += [
                "--\(boundary)", "Content-Type: \(type); charset=utf-8", "Content-Transfer-Encoding: base64", "",
            ]
            lines += wrapped(Data(text.utf8).base64EncodedString())
        }
        lines.append("--\(boundary)--")
        return Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
    }

    /// A header's text: as it is when it is printable ASCII, else RFC 2047 encoded words (UTF-8, base64,
    /// at most 75 characters each, on folded lines); line breaks become spaces either way.
    static func encodedHeader(_ text: String) -> String {
        let line = text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        if line.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) { return line }
        // 45 bytes of UTF-8 make 60 of base64, and the word 72: whole characters only, as a word must be.
        var words: [String] = []
        var chunk = ""
        for character in line {
            if chunk.utf8.count + String(character).utf8.count > 45 {
                words.append(chunk)
                chunk = ""
            }
            chunk.append(character)
        }
        words.append(chunk)
        return words.map { "=?UTF-8?B?\(Data($0.utf8).base64EncodedString())?=" }.joined(separator: "\r\n ")
    }

    /// `text` in lines of 76 characters, as MIME's base64 wants.
    private static func wrapped(_ text: String) -> [String] {
        var lines: [String] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            lines.append(String(rest.prefix(76)))
            rest = rest.dropFirst(76)
        }
        return lines
    }

    /// `Sat, 28 Nov 2026 11:37:25 +0000`.
    private static func dateText(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: date)
    }
}
