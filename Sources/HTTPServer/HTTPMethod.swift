/// An HTTP request method, compared case-sensitively as RFC 9110 §9.1 requires.
///
/// Any token a client sends is representable; the common ones have constants.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token as sent, for example `"GET"`.
    public let rawValue: String

    /// Wraps a method token.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `GET`.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`: answered by every `GET` route, without the body.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST`.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `OPTIONS`.
    public static let options = HTTPMethod(rawValue: "OPTIONS")

    /// The method of a request line as libmicrohttpd passes it; the common ones are recognised without
    /// building a string, as every request names one.
    init(cString: UnsafePointer<CChar>) {
        // Compared a byte at a time, so nothing past a shorter token's terminating NUL is read.
        func matches(_ token: StaticString) -> Bool {
            for index in 0...token.utf8CodeUnitCount {
                let expected = index < token.utf8CodeUnitCount ? token.utf8Start[index] : 0
                guard UInt8(bitPattern: cString[index]) == expected else { return false }
            }
            return true
        }
        if matches("GET") {
            self = .get
        } else if matches("POST") {
            self = .post
        } else if matches("HEAD") {
            self = .head
        } else {
            self.init(rawValue: String(cString: cString))
        }
    }

    /// The method token.
    public var description: String { rawValue }

    /// Whether a request with this method may carry content the server reads.
    /// RFC 9110 §9.3.1: content in a GET or HEAD has no defined meaning, so it is refused.
    var allowsBody: Bool { self != .get && self != .head }
}
