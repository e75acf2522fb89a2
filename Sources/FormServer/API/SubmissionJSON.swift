import FormEngine
import FormStore
import Foundation

/// A kept submission as the API writes it. Its payloads are kept as JSON text and written as they are.
enum SubmissionJSON {
    /// `{"id","received","version","httpParameters","formValues"}` (and `"edited"`, the time of the
    /// version, once edited), and `"files"` when `files` is given: each file's tag, name, media type,
    /// size and address.
    static func item(_ submission: StoredSubmission, files: [StoredFile]?) -> String {
        var text = #"{"id":"\#(submission.id)","received":"# + string(submission.received)
        if let edited = submission.edited { text += #","edited":"# + string(edited) }
        text += #","version":\#(submission.version)"#
        text += #","httpParameters":"# + submission.httpParameters + #","formValues":"# + submission.formValues
        if let files { text += #","files":"# + list(files, at: path(submission.formID) + "/\(submission.id)/files/") }
        return text + "}"
    }

    /// `{"version","saved","httpParameters","formValues","files"}`: a version of submission `id`.
    static func version(_ version: StoredVersion, of id: SubmissionID, formID: String) -> String {
        var text = #"{"version":\#(version.version),"saved":"# + string(version.saved)
        text += #","httpParameters":"# + version.httpParameters + #","formValues":"# + version.formValues
        text += #","files":"# + list(version.files, at: path(formID) + "/\(id)/versions/\(version.version)/files/")
        return text + "}"
    }

    /// `files` as a JSON list: each one's tag, name, media type, size, and address under `base`.
    private static func list(_ files: [StoredFile], at base: String) -> String {
        "["
            + files.map { file in
                let address = base + (file.tag.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "")
                return #"{"tag":"# + string(file.tag) + #","filename":"# + string(file.filename)
                    + #","contentType":"# + string(file.contentType) + #","size":\#(file.bytes.count),"url":"#
                    + string(address) + "}"
            }.joined(separator: ",") + "]"
    }

    /// `/api/forms/{id}/submissions` for form `formID`, its id percent-encoded as a path segment.
    static func path(_ formID: String) -> String { "/api" + FormRoutes.path(formID) + "/submissions" }

    /// `text` as a JSON string, quotes and escapes included.
    static func string(_ text: String) -> String { String(decoding: JSONValue.string(text).bytes, as: UTF8.self) }

    /// A `Content-Disposition` that saves the file as `filename`: an ASCII name for every client, and
    /// the exact one in RFC 8187's form for those that read it.
    static func attachment(_ filename: String) -> String {
        let name = filename.isEmpty ? "file" : filename
        let ascii = String(
            name.unicodeScalars.map { scalar in
                scalar.value >= 0x20 && scalar.value < 0x7F && scalar != "\"" && scalar != "\\" && scalar != "%"
                    ? Character(scalar) : "_"
            })
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<"\u{80}"))
        allowed.insert(charactersIn: "!#$&+-.^_`|~")
        let encoded = name.addingPercentEncoding(withAllowedCharacters: allowed) ?? ascii
        return "attachment; filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)"
    }
}
