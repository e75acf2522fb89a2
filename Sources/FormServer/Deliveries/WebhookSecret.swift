import Foundation

/// A webhook's signing secret in the Standard Webhooks form, `whsec_` and the key in base64, and the
/// signatures it makes: `v1,` and the base64 of HMAC-SHA256(key, `<webhook-id>.<webhook-timestamp>.<body>`).
struct WebhookSecret: Sendable {
    private let mac: KeyedMAC

    /// The secret `text` holds; nil unless it is `whsec_` and base64 of 24 to 64 bytes, as the
    /// specification asks.
    init?(_ text: String) {
        guard text.hasPrefix("whsec_"), let key = Data(base64Encoded: String(text.dropFirst(6))),
            (24...64).contains(key.count)
        else { return nil }
        mac = KeyedMAC(key: Array(key))
    }

    /// What a secret must look like, for messages.
    static let expected =
        "whsec_ and the base64 of 24 to 64 random bytes (for example whsec_$(openssl rand -base64 32))"

    /// The `webhook-signature` value of `body` sent as message `id` at `timestamp` (Unix seconds).
    func signature(id: String, timestamp: Int, body: [UInt8]) -> String {
        let message = Array("\(id).\(timestamp).".utf8) + body
        var digest = [UInt8](repeating: 0, count: 32)
        message.withUnsafeBufferPointer { message in
            digest.withUnsafeMutableBufferPointer { mac.write(message, into: $0.baseAddress!) }
        }
        return "v1," + Data(digest).base64EncodedString()
    }
}
