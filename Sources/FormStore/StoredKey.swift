/// An API key as a store keeps it: never the key itself, only its hash, so every server on the store
/// knows it and a copy of the store gives none away.
public struct StoredKey: Sendable, Equatable {
    /// The name it is listed and revoked by.
    public let name: String
    /// A digest of the key, which the store finds it by (the server chooses which).
    public let hash: String
    /// What it may do, as the server names it.
    public let scopes: [String]
    /// The forms it may do it to; empty for every form.
    public let forms: [String]
    /// When it was made.
    public let created: String

    /// A key with these parts.
    public init(name: String, hash: String, scopes: [String], forms: [String], created: String) {
        self.name = name
        self.hash = hash
        self.scopes = scopes
        self.forms = forms
        self.created = created
    }

    /// The key of the columns name, hash, scopes, forms, created: lists kept space-separated.
    init(columns: [String]) {
        let list = { (text: String) in text.split(separator: " ").map(String.init) }
        self.init(
            name: columns[0], hash: columns[1], scopes: list(columns[2]), forms: list(columns[3]), created: columns[4])
    }

    /// The values for the columns name, hash, scopes, forms, created.
    var columns: [String] {
        [name, hash, scopes.joined(separator: " "), forms.joined(separator: " "), created]
    }
}
