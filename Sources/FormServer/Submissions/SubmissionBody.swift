import FormEngine
import HTTPServer

/// Turns a POST's body into submitted fields by its `Content-Type`: urlencoded and multipart from
/// browsers, JSON from API clients.
enum SubmissionBody {
    /// The fields of `request`, or the 4xx that says what is wrong with its body.
    /// `contentType` is `request.contentType`, read once by the caller.
    static func fields(of request: Request, contentType: String?) throws(BodyError) -> SubmittedFields {
        switch contentType {
        case "application/x-www-form-urlencoded":
            var fields = SubmittedFields()
            guard QueryParameters.forEachPair(urlencoded: request.body, { fields.append($0, .text($1)) }) else {
                throw .badRequest("the form body has malformed percent-encoding or is not UTF-8")
            }
            return fields
        case "multipart/form-data":
            guard let boundary = boundary(of: request.headers["Content-Type"] ?? "") else {
                throw .badRequest("multipart/form-data needs a boundary parameter (RFC 7578 §4.1)")
            }
            return try MultipartForm.parse(request.body, boundary: boundary)
        case "application/json":
            do { return try JSONBody.parse(request.body) } catch { throw .badRequest(error.description) }
        case nil:
            throw .unsupported("a submission needs a Content-Type")
        case let other?:
            throw .unsupported(
                "'\(other)' is not read here: send application/x-www-form-urlencoded, multipart/form-data or application/json"
            )
        }
    }

    /// The `boundary` parameter of a multipart Content-Type (1–70 characters, RFC 2046 §5.1.1).
    static func boundary(of contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: " \t").lowercased() == "boundary" else { continue }
            var value = pair[1].trimmingCharacters(in: " \t")
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            return (1...70).contains(value.count) ? value : nil
        }
        return nil
    }
}
