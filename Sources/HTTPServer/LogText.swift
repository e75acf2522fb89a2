/// Text from a request made fit for a log line: its control bytes (C0 and DEL) written as `\xNN`, so
/// that a request can neither start a line of its own nor send a terminal an escape sequence, and
/// cut after a number of bytes (marked `…`), so that it cannot make a line huge. The access log writes
/// methods and targets so, and the server libmicrohttpd's messages, which may quote a request's path.
public enum LogText {
    /// The most bytes `write` writes for `count` bytes of text cut after `cap`.
    public static func capacity(_ count: Int, cap: Int) -> Int { 4 * min(count, cap) + 3 }

    /// Writes `bytes`, escaped and cut after `cap` bytes (never inside a UTF-8 sequence), into `buffer`
    /// from `start`, where `capacity` bytes must be free; returns where the written text ends.
    public static func write(
        _ bytes: UnsafeBufferPointer<UInt8>, cap: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int
    ) -> Int {
        var end = start
        // The usual text is short and plain: one copy, no byte-by-byte escaping.
        if bytes.count <= cap, !bytes.contains(where: isControl), let base = bytes.baseAddress {
            (buffer.baseAddress! + end).update(from: base, count: bytes.count)
            return end + bytes.count
        }
        let hex: StaticString = "0123456789abcdef"
        for (written, byte) in bytes.enumerated() {
            if written >= cap, byte & 0xC0 != 0x80 {
                for mark in "…".utf8 {
                    buffer[end] = mark
                    end += 1
                }
                return end
            }
            if isControl(byte) {
                buffer[end] = UInt8(ascii: "\\")
                buffer[end + 1] = UInt8(ascii: "x")
                buffer[end + 2] = hex.utf8Start[Int(byte >> 4)]
                buffer[end + 3] = hex.utf8Start[Int(byte & 15)]
                end += 4
            } else {
                buffer[end] = byte
                end += 1
            }
        }
        return end
    }

    /// `text` escaped and cut after `cap` bytes, as `write` writes it.
    public static func printable(_ text: String, cap: Int = .max) -> String {
        var text = text
        return text.withUTF8 { bytes in
            String(unsafeUninitializedCapacity: capacity(bytes.count, cap: cap)) { buffer in
                write(bytes, cap: cap, into: buffer, at: 0)
            }
        }
    }

    private static func isControl(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x7F }
}
