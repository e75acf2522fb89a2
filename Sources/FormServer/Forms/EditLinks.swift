import FormStore

/// The private links through which the person who sent a submission of an editable form changes it:
/// `/forms/{id}?edit=<sid>.<signature>`, the signature an HMAC of the submission's id for this form
/// under the CSRF guard's key (in a domain of its own, so it is no page token), so only the server can
/// make one, and one made for a form opens nothing of another. A link lasts as long as the submission
/// and `FORMWRIGHT_SECRET`: there is no state to keep.
struct EditLinks: Sendable {
    /// Signs with the server's secret (`FORMWRIGHT_SECRET`).
    let csrf: CSRFGuard

    /// The query parameter that carries a link's token.
    static let parameter = "edit"

    /// The token of submission `id` of form `formID`: its id, a dot, its signature.
    func token(formID: String, id: SubmissionID) -> String {
        "\(id).\(csrf.signature(of: id.description, for: formID, domain: Self.domain))"
    }

    /// The page that changes submission `id` of form `formID`.
    func path(formID: String, id: SubmissionID) -> String {
        FormRoutes.path(formID) + "?\(Self.parameter)=\(token(formID: formID, id: id))"
    }

    /// The submission `token` opens on form `formID`; nil for a token that is not one the server made
    /// for that form.
    func submission(_ token: String, formID: String) -> SubmissionID? {
        guard let dot = token.firstIndex(of: "."), let id = SubmissionID(String(token[..<dot])) else { return nil }
        let signature = String(token[token.index(after: dot)...])
        return csrf.verify(signature: signature, of: id.description, for: formID, domain: Self.domain) ? id : nil
    }

    /// What every edit link's signed message starts with, where a page token's has `csrf\0`.
    private static let domain: StaticString = "edit\u{0}"
}
