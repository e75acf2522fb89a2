private import COpenSSL
import FormStore
import Foundation
import HTTPServer

/// API keys: what `formwright keys create` makes and the API checks. A key is `fwk_` and 64 hex digits
/// (256 random bits); a store keeps only its SHA-256, so a copy of the store gives no key, and every
/// server on one store knows every key. A fast hash suffices for keys this long, as it would not for a
/// password: there is nothing to guess.
public enum APIKey {
    /// What a key may do.
    public enum Scope: String, CaseIterable, Sendable {
        /// List and read submissions and their files.
        case read
        /// Export submissions as CSV or JSON lines.
        case export
        /// Erase submissions.
        case delete
        /// Post multipart submissions without a page's CSRF token.
        case submit
        /// Send a delivery again (`POST …/deliveries/{job}/retry`).
        case deliver
    }

    /// A new key, to be shown once.
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return "fwk_"
            + (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }
            .joined()
    }

    /// The SHA-256 of `key` in hex: what a store keeps and looks keys up by.
    public static func hash(_ key: String) -> String {
        sha256(Array(key.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// The SHA-256 of `bytes`, from libcrypto.
    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        let hashed = bytes.withUnsafeBytes { EVP_Digest($0.baseAddress, $0.count, &digest, nil, EVP_sha256(), nil) }
        precondition(hashed == 1, "libcrypto could not hash")
        return digest
    }

    /// The scopes `text` lists (`read,export`), or a message naming the one that is none.
    public static func scopes(_ text: String) -> Result<[Scope], FormServerError> {
        var scopes: [Scope] = []
        for name in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            guard let scope = Scope(rawValue: name) else {
                let known = Scope.allCases.map(\.rawValue).joined(separator: ", ")
                return .failure(FormServerError(message: "'\(name)' is no scope: give some of \(known)"))
            }
            if !scopes.contains(scope) { scopes.append(scope) }
        }
        guard !scopes.isEmpty else { return .failure(FormServerError(message: "give at least one scope")) }
        return .success(scopes)
    }
}

extension APIKey {
    /// The key `Authorization: Bearer …` in `headers` names, if `database` knows it; a blocking call.
    static func authenticate(_ headers: HTTPHeaders, in database: any SubmissionDatabase) throws -> StoredKey {
        // RFC 6750 §3.1: no Bearer credentials at all get the bare challenge; wrong ones, invalid_token.
        guard let token = bearer(headers) else { throw APIProblem.noKey }
        guard let key = try key(token, in: database) else { throw APIProblem.wrongKey }
        return key
    }

    /// The key `token` is, if it has a key's shape and `database` knows it; a blocking call.
    static func key(_ token: String, in database: any SubmissionDatabase) throws(StoreError) -> StoredKey? {
        guard token.hasPrefix("fwk_"), token.utf8.count == 68 else { return nil }
        return try database.key(hash: hash(token))
    }

    /// Whether `headers` carry what looks like a Formwright key: `Authorization: Bearer fwk_…`.
    static func names(_ headers: HTTPHeaders) -> Bool { bearer(headers)?.hasPrefix("fwk_") ?? false }

    /// The token of `Authorization: Bearer <token>`, if that is what `headers` carry.
    private static func bearer(_ headers: HTTPHeaders) -> String? {
        guard let field = headers["Authorization"] else { return nil }
        let parts = field.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}

extension StoredKey {
    /// Throws `403` unless this key may do `scope` to form `formID`.
    func check(_ scope: APIKey.Scope, formID: String) throws(APIProblem) {
        guard scopes.contains(scope.rawValue) else {
            throw .forbidden("the key '\(name)' lacks the scope '\(scope.rawValue)'", missing: scope)
        }
        guard forms.isEmpty || forms.contains(formID) else {
            throw .forbidden("the key '\(name)' is not for the form '\(formID)'", missing: nil)
        }
    }
}
