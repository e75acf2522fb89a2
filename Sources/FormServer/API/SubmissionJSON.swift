import FormEngine
import FormStore
import Foundation

/// A kept submission as the API writes it. Its payloads are kept as JSON text and written as they are.
enum SubmissionJSON {
    /// `{"id","received","httpParameters","formValues"}`, and `"files"` when `files` is given: each file's
    /// tag, name, media type, size and address.
    static func item(_ submission: StoredSubmission, files: [StoredFile]?) -> String {
        var text = #"{"id":"\#(submission.id)","received":"# + string(submission.received)
        text += #","httpParameters":"# + submission.httpParameters + #","formValues":"# + submission.formValues
        if let files {
            let base = path(submission.formID) + "/\(submission.id)/files/"
            text += #","files":["#
            text += files.map { file in
                let address = base + (file.tag.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "")
                return #"{"tag":"# + string(file.tag) + #","filename":"# + string(file.filename)
                    + #","contentType":"# + string(file.contentType) + #","size":\#(file.bytes.count),"url":"#
                    + string(address) + "}"
            }.joined(separator: ",")
            text += "]"
        }
        return text + "}"
    }

    /// `/api/forms/{id}/submissions` for form `formID`, its id percent-encoded as a path segment.
    static func path(_ formID: String) -> String {
        var segment = CharacterSet.urlPathAllowed
        segment.remove("/")
        return "/api/forms/\(formID.addingPercentEncoding(withAllowedCharacters: segment) ?? "")/submissions"
    }

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
