private import COpenSSL
import Foundation

/// Salted scrypt hashes for rows that say `store: hash`, from libcrypto: what a store keeps in place of
/// a password, so it can be checked later (`verify`) and never read. Written in the PHC string format,
/// `$scrypt$ln=15,r=8,p=1$<salt>$<hash>` (unpadded base64), which carries its own parameters: a later
/// Formwright may raise the cost and still check old hashes.
public enum PasswordHash {
    /// scrypt's cost: N = 2^15, r = 8, p = 1 (32 MiB and some tens of milliseconds a hash), the
    /// interactive-login parameters of scrypt's paper.
    static let logN = 15
    static let blockSize = 8
    static let parallelism = 1

    /// A new hash of `password`, under 16 random bytes of salt.
    public static func make(_ password: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let hash = derive(password, salt: salt, logN: logN, blockSize: blockSize, parallelism: parallelism)
        return "$scrypt$ln=\(logN),r=\(blockSize),p=\(parallelism)$\(base64(salt))$\(base64(hash))"
    }

    /// Whether `password` is the one `hash` (a string `make` wrote) was made from.
    public static func verify(_ password: String, against hash: String) -> Bool {
        let parts = hash.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[1] == "scrypt" else { return false }
        var parameters: [String: Int] = [:]
        for pair in parts[2].split(separator: ",") {
            let sides = pair.split(separator: "=")
            if sides.count == 2, let value = Int(sides[1]) { parameters[String(sides[0])] = value }
        }
        guard let logN = parameters["ln"], let blockSize = parameters["r"], let parallelism = parameters["p"],
            (1...20).contains(logN), (1...32).contains(blockSize), (1...16).contains(parallelism),
            let salt = bytes(base64: parts[3]), let expected = bytes(base64: parts[4]), expected.count == 32
        else { return false }
        let actual = derive(password, salt: salt, logN: logN, blockSize: blockSize, parallelism: parallelism)
        // Compared in constant time: how long a wrong guess takes says nothing of the hash.
        return CRYPTO_memcmp(actual, expected, 32) == 0
    }

    /// 32 bytes of scrypt of `password` under `salt`.
    private static func derive(
        _ password: String, salt: [UInt8], logN: Int, blockSize: Int, parallelism: Int
    )
        -> [UInt8]
    {
        var key = [UInt8](repeating: 0, count: 32)
        let memory = UInt64(256) << 20  // libcrypto's 32 MiB default refuses N = 2^15 with r = 8
        let done = Array(password.utf8).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { text in
                EVP_PBE_scrypt(
                    text.baseAddress, text.count, salt, salt.count, UInt64(1) << UInt64(logN), UInt64(blockSize),
                    UInt64(parallelism), memory, &key, key.count)
            }
        }
        precondition(done == 1, "libcrypto's scrypt failed")
        return key
    }

    private static func base64(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "=", with: "")
    }

    private static func bytes(base64 text: Substring) -> [UInt8]? {
        let padded = String(text) + String(repeating: "=", count: (4 - text.count % 4) % 4)
        return Data(base64Encoded: padded).map(Array.init)
    }
}
