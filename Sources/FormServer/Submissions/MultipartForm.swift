import FormEngine
import FormModel

/// Reads a `multipart/form-data` body (RFC 7578) into fields: text parts as text, parts with a
/// `filename` as files. The body is already bounded by the server's body limit, and the part count
/// here. A file over the upload limit is read like any other: the engine refuses it as its row's
/// error (`fileTooLarge`), so the page comes back with everything else that was typed.
enum MultipartForm {
    /// The most parts read; a body with more is refused.
    static let maximumParts = 1_000

    /// The fields of `body`, delimited by `boundary`, or what is wrong with it.
    static func parse(_ body: [UInt8], boundary: String) throws(BodyError) -> SubmittedFields {
        let delimiter = Array("--\(boundary)".utf8)
        var fields = SubmittedFields()
        guard var cursor = body.firstRange(of: delimiter)?.upperBound else {
            throw .badRequest("the multipart body has no part delimited by its boundary")
        }
        var parts = 0
        while true {
            // After a delimiter: `--` closes the body; otherwise CRLF and a part follow.
            if body[cursor...].starts(with: [0x2D, 0x2D]) { return fields }
            guard body[cursor...].starts(with: [0x0D, 0x0A]) else {
                throw .badRequest("a malformed multipart delimiter")
            }
            cursor += 2
            guard let headerEnd = body[cursor...].firstRange(of: [0x0D, 0x0A, 0x0D, 0x0A]) else {
                throw .badRequest("a multipart part without the blank line after its headers")
            }
            let headers = try partHeaders(body[cursor..<headerEnd.lowerBound])
            guard let next = body[headerEnd.upperBound...].firstRange(of: [0x0D, 0x0A] + delimiter) else {
                throw .badRequest("the multipart body ends before its closing boundary")
            }
            let content = Array(body[headerEnd.upperBound..<next.lowerBound])
            parts += 1
            guard parts <= maximumParts else { throw .badRequest("more than \(maximumParts) multipart parts") }
            // A file is a part with a file name, or with a type other than text: RFC 7578 §4.2 only says a
            // sender SHOULD name a file, and a part's type defaults to text/plain (§4.4).
            if headers.filename != nil || !Self.isText(headers.contentType) {
                let file = UploadedFile(
                    filename: Self.baseName(headers.filename ?? ""),
                    contentType: headers.contentType ?? "application/octet-stream", bytes: content)
                fields.append(headers.name, .file(file))
            } else {
                guard let text = String(validating: content, as: UTF8.self) else {
                    throw .badRequest("the field '\(headers.name)' is not UTF-8 text")
                }
                fields.append(headers.name, .text(text))
            }
            cursor = next.upperBound
        }
    }

    /// Whether a part of `contentType` is text: no type at all (text/plain, by default), or `text/plain`.
    private static func isText(_ contentType: String?) -> Bool {
        guard let contentType else { return true }
        let type = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return type.trimmingCharacters(in: " \t").lowercased() == "text/plain"
    }

    private struct PartHeaders {
        var name = ""
        var filename: String?
        var contentType: String?
    }

    private static func partHeaders(_ bytes: ArraySlice<UInt8>) throws(BodyError) -> PartHeaders {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .badRequest("part headers are not UTF-8")
        }
        var headers = PartHeaders()
        var named = false
        for line in text.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { throw .badRequest("a malformed part header") }
            let field = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...]
            if field == "content-type" { headers.contentType = value.trimmingCharacters(in: " \t") }
            guard field == "content-disposition" else { continue }
            for parameter in Self.parameters(value) {
                if parameter.key == "name" {
                    headers.name = parameter.value
                    named = true
                }
                if parameter.key == "filename" { headers.filename = parameter.value }
            }
        }
        guard named else { throw .badRequest("a multipart part without a name") }
        return headers
    }

    /// `form-data; name="a"; filename="b.txt"` → [name: a, filename: b.txt]. Browsers escape `"` as
    /// `%22` in names (HTML §4.10.21.8), so a quoted value ends at the next quote.
    private static func parameters(_ value: Substring) -> [(key: String, value: String)] {
        var result: [(String, String)] = []
        var rest = value[...]
        while let semicolon = rest.firstIndex(of: ";") {
            rest = rest[rest.index(after: semicolon)...]
            guard let equals = rest.firstIndex(of: "=") else { break }
            let key = rest[..<equals].trimmingCharacters(in: " \t").lowercased()
            let after = rest[rest.index(after: equals)...]
            if after.first == "\"" {
                let (text, end) = quoted(after.dropFirst())
                result.append((key, text))
                rest = end
            } else {
                let end = after.firstIndex(of: ";") ?? after.endIndex
                result.append((key, String(after[..<end])))
                rest = after[end...]
            }
        }
        return result
    }

    /// A quoted string's text, from just after its opening quote, and what follows its closing one. A
    /// backslash escapes a quote or a backslash (RFC 9110 §5.6.4, as curl sends `a\"b.png`); before any
    /// other character it is kept, as an old browser's `C:\pics\me.png` holds it.
    private static func quoted(_ text: Substring) -> (String, Substring) {
        var value = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "\"" { return (value, text[text.index(after: index)...]) }
            let next = text.index(after: index)
            if character == "\\", next < text.endIndex, text[next] == "\"" || text[next] == "\\" {
                value.append(text[next])
                index = text.index(after: next)
                continue
            }
            value.append(character)
            index = next
        }
        return (value, text[text.endIndex...])
    }

    /// A file name without any folder part a browser (or an attacker) put in it.
    static func baseName(_ name: String) -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        return last == ".." || last == "." ? "" : last
    }
}

extension StringProtocol {
    /// Without leading and trailing characters of `set`.
    func trimmingCharacters(in set: String) -> String {
        let start = firstIndex { !set.contains($0) } ?? endIndex
        let end = lastIndex { !set.contains($0) }.map { index(after: $0) } ?? start
        return start < end ? String(self[start..<end]) : ""
    }
}
