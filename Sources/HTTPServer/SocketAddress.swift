// sockaddr's members come through the C module's view of the system headers.
private import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A peer's IP address and port.
///
/// Its text (`description`) is written once, when the address is read: a connection's address is
/// read when its first request comes, and the access log writes it on every request.
public struct SocketAddress: Sendable, Hashable, CustomStringConvertible {
    enum Address: Hashable {
        case v4(UInt32)
        case v6(UInt64, UInt64)
    }

    let address: Address
    /// The peer's port.
    public let port: Int
    /// `description`'s bytes, in a value of fixed size (a Swift array would be an allocation per
    /// connection): 56 bytes, room for `maximumDescriptionLength`.
    private var text: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0)
    private var textCount = 0

    /// Reads an IPv4 or IPv6 `sockaddr`; nil for any other family.
    init?(_ pointer: UnsafeRawPointer) {
        switch Int32(pointer.loadUnaligned(as: sockaddr.self).sa_family) {
        case AF_INET:
            let v4 = pointer.loadUnaligned(as: sockaddr_in.self)
            address = .v4(v4.sin_addr.s_addr)
            port = Int(UInt16(bigEndian: v4.sin_port))
        case AF_INET6:
            let v6 = pointer.loadUnaligned(as: sockaddr_in6.self)
            let halves = withUnsafeBytes(of: v6.sin6_addr) {
                ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            }
            address = .v6(halves.0, halves.1)
            port = Int(UInt16(bigEndian: v6.sin6_port))
        default:
            return nil
        }
        var text = self.text
        textCount = withUnsafeMutableBytes(of: &text) { format(into: $0.bindMemory(to: UInt8.self)) }
        self.text = text
    }

    public static func == (left: SocketAddress, right: SocketAddress) -> Bool {
        left.address == right.address && left.port == right.port
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(address)
        hasher.combine(port)
    }

    /// The address alone: `127.0.0.1` or `::1`.
    public var ip: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        switch address {
        case .v4(let raw):
            var addr = in_addr(s_addr: raw)
            inet_ntop(AF_INET, &addr, &text, socklen_t(text.count))
        case .v6(let high, let low):
            var words = (high, low)
            withUnsafeBytes(of: &words) { _ = inet_ntop(AF_INET6, $0.baseAddress, &text, socklen_t(text.count)) }
        }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `127.0.0.1:5000` or `[::1]:5000`.
    public var description: String {
        var text: [UInt8] = []
        appendDescription(to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends `description`'s UTF-8 bytes.
    public func appendDescription(to text: inout [UInt8]) {
        withDescriptionBytes { text.append(contentsOf: $0) }
    }

    /// Calls `body` with `description`'s UTF-8 bytes.
    public func withDescriptionBytes(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        withUnsafeBytes(of: text) { body(UnsafeBufferPointer(rebasing: $0.bindMemory(to: UInt8.self)[..<textCount])) }
    }

    /// The most bytes `description` takes: `[`, the longest IPv6 text, `]:` and five digits.
    public static let maximumDescriptionLength = Int(INET6_ADDRSTRLEN) + 8

    /// Writes `description`'s UTF-8 bytes at the start of `buffer`, which holds at least
    /// `maximumDescriptionLength` bytes, and returns how many it wrote: a copy of the text written
    /// when the address was read.
    public func writeDescription(to buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        precondition(buffer.count >= Self.maximumDescriptionLength, "the buffer is too small for a peer")
        withDescriptionBytes { buffer.baseAddress!.update(from: $0.baseAddress!, count: $0.count) }
        return textCount
    }

    /// Writes `description`'s text at the start of `buffer` (of at least `maximumDescriptionLength`
    /// bytes); returns its length. IPv4 is formatted by hand, as cheap as it is short; IPv6 by
    /// `inet_ntop` (`ip`), which shortens runs of zeros as RFC 5952 says.
    private func format(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var count = 0
        switch address {
        case .v4(let raw):
            // s_addr is in network order: the first octet is the lowest byte in memory.
            withUnsafeBytes(of: raw) { octets in
                for index in 0..<4 {
                    if index > 0 { Self.put(UInt8(ascii: "."), buffer, &count) }
                    Self.putOctet(octets[index], buffer, &count)
                }
            }
        case .v6:
            Self.put(UInt8(ascii: "["), buffer, &count)
            for byte in ip.utf8 { Self.put(byte, buffer, &count) }
            Self.put(UInt8(ascii: "]"), buffer, &count)
        }
        Self.put(UInt8(ascii: ":"), buffer, &count)
        Self.putDecimal(port, buffer, &count)
        return count
    }

    private static func put(_ byte: UInt8, _ buffer: UnsafeMutableBufferPointer<UInt8>, _ count: inout Int) {
        buffer[count] = byte
        count += 1
    }

    /// An octet's one to three digits, worked out inline: four per IPv4 peer, on every access-log line.
    private static func putOctet(_ octet: UInt8, _ buffer: UnsafeMutableBufferPointer<UInt8>, _ count: inout Int) {
        let zero = UInt8(ascii: "0")
        if octet >= 100 { put(zero &+ octet / 100, buffer, &count) }
        if octet >= 10 { put(zero &+ octet / 10 % 10, buffer, &count) }
        put(zero &+ octet % 10, buffer, &count)
    }

    /// A port.
    private static func putDecimal(_ value: Int, _ buffer: UnsafeMutableBufferPointer<UInt8>, _ count: inout Int) {
        count = DecimalDigits.write(UInt(value), into: buffer, at: count)
    }
}
