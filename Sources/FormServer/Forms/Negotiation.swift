import HTTPServer

/// How a client wants its answer.
enum Negotiation {
    /// JSON for a JSON body or an `Accept` that prefers `application/json` to HTML; a page otherwise
    /// (a plain browser post sends `Accept: text/html,…`).
    /// `contentType` is `request.contentType`, read once by the caller.
    static func wantsJSON(_ request: Request, contentType: String?) -> Bool {
        if contentType == "application/json" { return true }
        guard let header = request.headers["Accept"] else { return false }
        if header == "application/json" { return true }  // what API clients send, without parsing
        let accept = header.lowercased()
        let json = quality(of: "application/json", in: accept)
        let html = quality(of: "text/html", in: accept)
        return json > 0 && json > html
    }

    /// The `q` an `Accept` header gives `type` exactly (RFC 9110 §12.5.1); 0 when absent.
    static func quality(of type: String, in accept: String) -> Double {
        for entry in accept.split(separator: ",") {
            let parts = entry.split(separator: ";")
            guard parts.first?.trimmingCharacters(in: " \t") == type else { continue }
            for parameter in parts.dropFirst() {
                let pair = parameter.trimmingCharacters(in: " \t")
                if pair.hasPrefix("q="), let value = Double(pair.dropFirst(2)) { return value }
            }
            return 1
        }
        return 0
    }
}
