import FormEngine
import FormHTML
import Foundation
import HTTPServer

/// The version of a stored record that a post was made from, and how it is written as an entity tag.
///
/// A page of a record at a version carries it in its `_version` field; an API client reads it as the
/// `ETag` of `GET /forms/{id}?…` and sends it back in `If-Match` (RFC 9110 §13.1.1). A post whose
/// version is not the record's now would overwrite a save its sender has not seen.
enum RecordVersion {
    /// What a post says about the version it edits.
    struct Sent: Equatable {
        /// The versions the post may overwrite; nil when it names none, and is not checked (a client
        /// that keeps no versions).
        let versions: [String]?
        /// The text of the `_version` field, which a page shown again carries on.
        let text: String?

        /// Whether a save over the record at version `current` is what the post was made from.
        func allows(_ current: String) -> Bool { versions?.contains(current) ?? true }

        static let unchecked = Sent(versions: nil, text: nil)
    }

    /// The version `fields` and `request` name: `If-Match`, else the `_version` field.
    static func sent(_ fields: SubmittedFields, request: Request) -> Sent {
        let field = fields.first(FieldNames.version).flatMap(\.enteredText)
        if let header = request.headers["If-Match"] { return Sent(versions: versions(ifMatch: header), text: field) }
        return Sent(versions: field.map { [$0] }, text: field)
    }

    /// The versions an `If-Match` field allows: nil for `*` (any: the record exists), the texts of its
    /// strong entity tags otherwise. A weak tag (`W/"…"`) allows none, as `If-Match` compares strongly;
    /// an unquoted one is read as its text.
    static func versions(ifMatch header: String) -> [String]? {
        let members = header.split(separator: ",").map { $0.trimmingCharacters(in: [" ", "\t"]) }
        if members.contains("*") { return nil }
        return members.compactMap { member -> String? in
            if member.hasPrefix("W/") { return nil }
            if member.count >= 2, member.hasPrefix("\""), member.hasSuffix("\"") {
                return String(member.dropFirst().dropLast())
            }
            return member.isEmpty ? nil : member
        }
    }

    /// `version` as a strong entity tag: `"17"`. (`RecordLookup.isValid(version:)` keeps `"` out of it.)
    static func entityTag(_ version: String) -> String { "\"\(version)\"" }
}
