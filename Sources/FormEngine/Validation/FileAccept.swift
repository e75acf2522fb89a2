import FormModel
import Foundation

/// An upload row's `accept` (HTML's attribute: media types, `type/*` wildcards, `.ext` extensions),
/// enforced on the server: a browser's file picker only suggests it, and any client can post any file.
///
/// A file passes when its declared media type or its name's extension matches an entry, ASCII
/// case-insensitively (HTML §4.10.5.1.18). Both are the client's words, so a file that claims a type
/// whose signature is well known — by its declared type or by its extension — must also begin with
/// that signature: an HTML page posted as `photo.png`, `image/png` is refused.
public enum FileAccept {
    /// What is wrong with `file` for a row accepting `accept`, or nil.
    static func problem(_ file: UploadedFile, accept: [String]) -> Problem? {
        let declared = mediaType(file.contentType)
        let name = file.filename.lowercased()
        let matches = accept.contains { entry in
            let entry = entry.lowercased().trimmingCharacters(in: .whitespaces)
            if entry.hasPrefix(".") { return name.hasSuffix(entry) && name.count > entry.count }
            if entry.hasSuffix("/*") { return declared.hasPrefix(entry.dropLast()) }
            return declared == entry
        }
        guard matches else { return .fileType(allowed: accept) }
        // Every well-known type the file claims, by its media type or by its extension.
        let extensionType = name.lastIndex(of: ".").flatMap { typeOfExtension[String(name[$0...])] }
        for claimed in Set([declared, extensionType].compactMap { $0 }) {
            if let check = signatures[claimed], !check(file.bytes) { return .fileContent(type: claimed) }
        }
        return nil
    }

    /// `type/subtype` of a `Content-Type` value, lowercased, without parameters.
    private static func mediaType(_ value: String) -> String {
        let type = value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return type.trimmingCharacters(in: .whitespaces).lowercased()
    }

    private static let typeOfExtension: [String: String] = [
        ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
        ".webp": "image/webp", ".pdf": "application/pdf",
    ]

    /// The well-known type `bytes` begin as (`image/png`…), whatever a file is called or claims to be.
    public static func signatureType(of bytes: [UInt8]) -> String? {
        signatures.first { $0.value(bytes) }?.key
    }

    /// How each well-known type's files begin (their "magic numbers", as WHATWG's MIME Sniffing lists them).
    private static let signatures: [String: @Sendable ([UInt8]) -> Bool] = [
        "image/png": { $0.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) },
        "image/jpeg": { $0.starts(with: [0xFF, 0xD8, 0xFF]) },
        "image/gif": { $0.starts(with: Array("GIF87a".utf8)) || $0.starts(with: Array("GIF89a".utf8)) },
        "image/webp": { $0.starts(with: Array("RIFF".utf8)) && $0.dropFirst(8).starts(with: Array("WEBPVP".utf8)) },
        "application/pdf": { $0.starts(with: Array("%PDF-".utf8)) },
    ]
}
