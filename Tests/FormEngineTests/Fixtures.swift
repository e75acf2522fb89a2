import FormEngine
import FormModel
import Foundation

/// The example forms of `Forms/`, compiled once for every test.
enum Fixtures {
    static let formsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Forms").path

    static let catalog: FormCatalog = {
        do { return try FormCatalog(folder: formsFolder) } catch { fatalError("the example forms must load: \(error)") }
    }()

    /// An engine for example form `id`.
    static func engine(_ id: String) -> FormEngine { FormEngine(form: catalog.forms[id]!) }

    /// A form whose row calls the custom validator `invitationCode` by name, after a built-in one.
    static let invitation: CompiledForm = {
        let text = """
            id: invitation
            sections:
              - rows:
                  - tag: code
                    type: text
                    validators: [{ kind: minLength, value: 3 }, { kind: custom, name: invitationCode }]
            """
        do {
            let form = try FormLoader().load(text, file: "invitation.yaml", defaultID: "invitation").get()
            return try FormCompiler().compile(form, file: "invitation.yaml")
        } catch { fatalError("the invitation fixture must load: \(error)") }
    }()

    static let invitationCode = CustomValidator("invitationCode") { value in
        value.description.hasPrefix("FW-") ? nil : "Invitation codes start with FW-"
    }

    /// Form-post fields from pairs, names repeating as a browser repeats them.
    static func post(_ pairs: [(String, String)]) -> SubmittedFields {
        var fields = SubmittedFields()
        for (name, value) in pairs { fields.append(name, .text(value)) }
        return fields
    }

    /// A valid calendar event, as a browser posts it.
    static let validEvent: [(String, String)] = [
        ("title", "Team lunch"), ("location", "Canteen"), ("starts", "2026-11-23T12:00"),
        ("ends", "2026-11-23T13:00"), ("repeat", "never"), ("alert", "15m"), ("second-alert", "5m"),
        ("url", "https://example.com/lunch"), ("email", "team@example.com"), ("guests", "8"), ("notes", "Bring cake"),
    ]

    /// `validEvent` with `changes` applied (a nil value removes the field).
    static func event(_ changes: [String: String?]) -> SubmittedFields {
        var pairs = validEvent.filter { changes[$0.0] == nil }
        for (name, value) in changes.sorted(by: { $0.key < $1.key }) {
            if let value { pairs.append((name, value)) }
        }
        return post(pairs)
    }
}

extension Verdict {
    /// The error codes by field tag, in order.
    var codes: [String] { errors.map { "\($0.tag):\($0.code)" } }
}
