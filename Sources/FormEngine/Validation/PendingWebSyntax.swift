// TEMPORARY until the WHATWG syntax checks land; deleted then.
enum EmailSyntax {
    static func isValid(_ text: String) -> Bool { text.contains("@") && !text.contains(" ") }
}
enum URLSyntax {
    enum Verdict { case valid, notAbsolute, schemeNotAllowed(String), invalid(reason: String) }
    static func check(_ text: String, allowedSchemes: [String] = ["http", "https"]) -> Verdict {
        guard let colon = text.firstIndex(of: ":") else { return .notAbsolute }
        let scheme = text[..<colon].lowercased()
        return allowedSchemes.contains(scheme) ? .valid : .schemeNotAllowed(scheme)
    }
}
