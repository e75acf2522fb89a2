import FormStore

/// The private links through which the person who sent a submission of an editable form changes it:
/// `/forms/{id}?edit=<sid>.<signature>`, the signature the CSRF guard's MAC of the submission's id for
/// this form, so only the server can make one, and one made for a form opens nothing of another. A
/// link lasts as long as the submission and `FORMWRIGHT_SECRET`: there is no state to keep.
struct EditLinks: Sendable {
    let csrf: CSRFGuard

    /// The query parameter that carries a link's token.
    static let parameter = "edit"

    /// The token of submission `id` of form `formID`: its id, a dot, its signature.
    func token(formID: String, id: SubmissionID) -> String {
        "\(id).\(csrf.token(formID: Self.purpose(formID), nonce: id.description))"
    }

    /// The page that changes submission `id` of form `formID`.
    func path(formID: String, id: SubmissionID) -> String {
        "/forms/\(formID)?\(Self.parameter)=\(token(formID: formID, id: id))"
    }

    /// The submission `token` opens on form `formID`; nil for a token that is not one the server made
    /// for that form.
    func submission(_ token: String, formID: String) -> SubmissionID? {
        guard let dot = token.firstIndex(of: "."), let id = SubmissionID(String(token[..<dot])) else { return nil }
        let signature = String(token[token.index(after: dot)...])
        return csrf.verify(signature: signature, purpose: Self.purpose(formID), value: id.description) ? id : nil
    }

    /// Keeps the signatures of edit links apart from the page tokens the guard also signs.
    private static func purpose(_ formID: String) -> String { "edit\u{0}\(formID)" }
}
