import Foundation

/// Where a form's kept submissions go besides the store: a descriptor's `deliver` list. The server
/// writes a delivery job for each in the same transaction as the submission, and sends it with
/// retries until it is delivered or has failed for good.
public enum Delivery: Sendable, Hashable {
    /// A signed `POST` of the submission to `url` (`http` or `https`), per the Standard Webhooks
    /// specification, with the secret (`whsec_` and base64) in the environment variable `secretEnv`:
    /// never in the descriptor.
    case webhook(url: String, secretEnv: String)
    /// A notification by e-mail to `address` (the team), listing the rows by their titles.
    case email(address: String)
    /// A confirmation by e-mail to the address the `email` row `tag` holds, in the form's language.
    case confirmTo(tag: String)
}

extension Delivery {
    /// What is wrong with `url` as a webhook's address, if anything.
    public static func webhookProblem(_ url: String) -> String? {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased() else {
            return "'\(url)' is not a URL"
        }
        guard scheme == "http" || scheme == "https" else {
            return "a webhook is an http or https URL, found '\(scheme):'"
        }
        guard let host = parsed.host, !host.isEmpty else { return "'\(url)' names no host" }
        return nil
    }

    /// Whether `name` can be an environment variable's name.
    public static func isVariableName(_ name: String) -> Bool {
        let letter = { (byte: UInt8) in (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F }
        guard let first = name.utf8.first, letter(first) else { return false }
        return name.utf8.allSatisfy { letter($0) || (0x30...0x39).contains($0) }
    }

    /// Whether `address` is an e-mail address a message can go to: a name, `@`, a domain with a dot, and
    /// nothing that could end a mail header (spaces, controls, `<`, `>`, `,`, `;`).
    public static func isMailAddress(_ address: String) -> Bool {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."),
            !parts[1].hasSuffix(".")
        else { return false }
        // ASCII only: an address is written as it is into `To:` and SMTP's `RCPT`, without SMTPUTF8.
        return address.unicodeScalars.allSatisfy { scalar in
            scalar.value > 0x20 && scalar.value < 0x7F && !"<>,;\"()[]\\".unicodeScalars.contains(scalar)
        }
    }
}
