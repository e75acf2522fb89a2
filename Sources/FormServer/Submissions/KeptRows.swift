import FormEngine
import FormModel

/// What a store keeps of a form's rows, worked out in one walk of the form: which values it leaves
/// out, and which it keeps as salted hashes. A store is read by people and programs that must never
/// see a password or a row that says `store: false`.
struct KeptRows: Sendable {
    /// The tags of the rows whose values no store keeps: passwords (unless `store: hash`), rows that
    /// say `store: false`, and the multivalued sections whose items are such rows or hashed (a list of
    /// hashes checks nothing).
    let leftOut: Set<String>
    /// The tags of the rows whose values a store keeps as salted hashes (`store: hash`).
    let hashed: Set<String>

    init(_ form: CompiledForm) {
        let unkept = { (row: Row) in (row.type.isSecret && !row.storeHashed) || !row.store }
        var leftOut = Set<String>()
        var hashed = Set<String>()
        for entry in form.rows {
            guard let tag = entry.row.tag else { continue }
            if unkept(entry.row) {
                leftOut.insert(tag)
            } else if entry.row.storeHashed {
                hashed.insert(tag)
            }
        }
        for section in form.sections {
            if let tag = section.section.multivaluedTag, let item = section.item,
                unkept(item.row) || item.row.type.isSecret || item.row.storeHashed
            {
                leftOut.insert(tag)
            }
        }
        self.leftOut = leftOut
        self.hashed = hashed.subtracting(leftOut)
    }

    /// Whether a store keeps every row as it was sent.
    var keepsAll: Bool { leftOut.isEmpty && hashed.isEmpty }
}

extension Verdict {
    /// Both payloads as a store keeps them (`kept`, of this verdict's form): its left-out rows left
    /// out, and each hashed row a salted hash (`PasswordHash`, the same in both) in place of its text.
    /// Hashing takes tens of milliseconds: a keeper calls this off the server's threads. `parameters` is
    /// `httpParameters` before it became text (left-out rows still in), for what is counted of it.
    func keptPayloads(_ kept: KeptRows) -> (httpParameters: String, formValues: String, parameters: JSONValue) {
        let payloads = payloads()
        let unkept = kept.leftOut
        let hashed = kept.hashed
        guard !hashed.isEmpty, case .object(let parameters) = payloads.httpParameters,
            case .object(let values) = payloads.formValues
        else {
            return (
                Verdict.text(payloads.httpParameters, leavingOut: unkept),
                Verdict.text(payloads.formValues, leavingOut: unkept), payloads.httpParameters
            )
        }
        var hashes: [String: String] = [:]
        for case (let tag, .string(let text)) in parameters where hashed.contains(tag) {
            hashes[tag] = PasswordHash.make(text)
        }
        let hashedParameters = parameters.map { tag, value in (tag, hashes[tag].map(JSONValue.string) ?? value) }
        let hashedValues = values.map { tag, value in (tag, hashes[tag].map(JSONValue.string) ?? value) }
        return (
            Verdict.text(.object(hashedParameters), leavingOut: unkept),
            Verdict.text(.object(hashedValues), leavingOut: unkept), .object(hashedParameters)
        )
    }

    /// `payload` as JSON text without the keys `leftOut`.
    static func text(_ payload: JSONValue, leavingOut leftOut: Set<String>) -> String {
        guard case .object(let members) = payload, !leftOut.isEmpty else {
            return String(decoding: payload.bytes, as: UTF8.self)
        }
        return String(decoding: JSONValue.object(members.filter { !leftOut.contains($0.0) }).bytes, as: UTF8.self)
    }
}
