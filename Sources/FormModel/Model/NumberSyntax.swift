/// The one number notation Formwright reads and HTML's number input writes (HTML §2.3.4.3, "valid
/// floating-point number"): `-12`, `3.5`, `.5`, `1e3`; no grouping, no comma decimals, no `NaN`.
/// The server's decoding and the renderer's choice of input type both ask here, so they cannot drift.
public enum NumberSyntax {
    /// `-?(digits(.digits)?|.digits)([eE][+-]?digits)?`, scanned in one pass. A leading `+` is HTML's
    /// syntax too only when `allowingPlusSign` (what the server accepts; an `<input>`'s value may not).
    public static func isFloatingPoint(_ text: String, allowingPlusSign: Bool = false) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        func digits() -> Int {
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            return index - start
        }
        if index < bytes.count,
            bytes[index] == UInt8(ascii: "-") || (allowingPlusSign && bytes[index] == UInt8(ascii: "+"))
        {
            index += 1
        }
        let whole = digits()
        var fraction = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            fraction = digits()
            guard fraction > 0 else { return false }
        }
        guard whole + fraction > 0 else { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                index += 1
            }
            guard digits() > 0 else { return false }
        }
        return index == bytes.count
    }
}
