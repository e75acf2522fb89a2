import FormEngine
import FormHTML
import FormModel
import FormStore
import Foundation

/// The delivery jobs a kept submission of a form brings, one per entry of its `deliver` list, written
/// in the same transaction as the submission. A webhook job names the submission's version, whose kept
/// payloads its body carries when it is sent (`WebhookBody`); an e-mail job keeps its subject and parts,
/// written in the form's language from the payloads as the store keeps them. Neither carries a
/// password or anything `store: false`, and a row kept hashed is left out of a message.
struct DeliveryJobs: Sendable {
    let formID: String
    let form: CompiledForm
    /// The form's texts in its own language: a notification and a confirmation are written in it.
    private let texts: PageTexts
    /// Rows a message leaves out: those the store keeps hashed.
    private let hashed: Set<String>

    /// The jobs of `form`'s submissions.
    init(form: CompiledForm) {
        formID = form.form.id
        self.form = form
        texts = PageTexts(locale: form.form.locale, overrides: form.form.messages)
        hashed = KeptRows(form).hashed
    }

    /// Whether the form delivers anything.
    var isEmpty: Bool { form.form.deliveries.isEmpty }

    /// The jobs of `verdict`, kept as submission `id` at `version` (1 as sent, more for an edit) with
    /// `httpParameters` as the store keeps them, at `time` (milliseconds since 1970, and as the store
    /// writes it).
    func jobs(
        _ verdict: Verdict, id: SubmissionID, version: Int, httpParameters: String,
        at time: (due: UInt64, created: String)
    ) -> [StoredDelivery] {
        let (due, created) = time
        var jobs: [StoredDelivery] = []
        for (index, delivery) in form.form.deliveries.enumerated() {
            let job = { (kind: String, destination: String, secretName: String, body: String) in
                StoredDelivery(
                    id: "msg_\(id)_\(version)_\(index)", submission: id, version: version, formID: formID,
                    kind: kind, destination: destination, secretName: secretName, body: body, due: due,
                    created: created)
            }
            switch delivery {
            case .webhook(let url, let secretEnv):
                jobs.append(job("webhook", url, secretEnv, ""))
            // An edit goes to webhooks alone: a new e-mail for each save would be noise.
            case .email where version > 1, .confirmTo where version > 1: continue
            case .email(let address):
                jobs.append(job("email", address, "", mail(notifying: true, id: id, httpParameters)))
            case .confirmTo(let tag):
                // The address as sent, kept or not: a confirmation goes to whoever typed it.
                guard case .object(let values) = verdict.httpParameters,
                    case .string(let address)? = values.first(where: { $0.0 == tag })?.1,
                    Delivery.isMailAddress(address)
                else { continue }
                jobs.append(job("email", address, "", mail(notifying: false, id: id, httpParameters)))
            }
        }
        return jobs
    }

    /// An e-mail's content as its job keeps it (`MailContent`): to the team (`notifying`) or to the person
    /// who sent the submission.
    private func mail(notifying: Bool, id: SubmissionID, _ httpParameters: String) -> String {
        let title = form.form.title ?? formID
        let subject = (notifying ? texts.mailSubject : texts.confirmationSubject).replacing("{title}", with: title)
        let intro = (notifying ? texts.mailIntro : texts.confirmationIntro).replacing("{title}", with: title)
            .replacing("{reference}", with: id.description)
        let rows = answers(httpParameters)
        var text = intro + "\n\n"
        var html = "<div lang=\"\(Self.escaped(form.form.locale))\">\n<p>" + Self.escaped(intro) + "</p>\n<table>\n"
        for (title, value) in rows {
            text += "\(title): \(value)\n"
            html += "<tr><th scope=\"row\" style=\"text-align:left;padding-right:1em\">\(Self.escaped(title))</th>"
            html += "<td>\(Self.escaped(value).replacingOccurrences(of: "\n", with: "<br>"))</td></tr>\n"
        }
        html += "</table>\n</div>\n"
        return MailContent(subject: subject, text: text, html: html).json
    }

    /// The rows of a kept `httpParameters` with a value, by their titles, in page order; a row kept
    /// hashed left out.
    private func answers(_ httpParameters: String) -> [(title: String, value: String)] {
        guard case .object(let members)? = try? JSONValue(parsing: httpParameters.utf8) else { return [] }
        var values: [String: JSONValue] = [:]
        for (key, value) in members { values[key] = value }
        var rows: [(String, String)] = []
        for section in form.sections {
            if let tag = section.section.multivaluedTag {
                if let value = values[tag], value != .null, value != .array([]) {
                    rows.append((section.itemTitle.isEmpty ? tag : section.itemTitle, SubmissionTable.text(value)))
                }
                continue
            }
            for index in section.rows {
                let row = form.rows[index].row
                guard row.type.takesInput, let tag = row.tag, !hashed.contains(tag), let value = values[tag],
                    value != .null
                else { continue }
                rows.append((row.title ?? tag, SubmissionTable.text(value)))
            }
        }
        return rows
    }

    private static func escaped(_ text: String) -> String { String(decoding: HTML(text: text).bytes, as: UTF8.self) }
}

/// An e-mail's subject and parts, as a job keeps them until it is sent (as JSON).
struct MailContent: Sendable, Equatable {
    let subject: String
    let text: String
    let html: String

    /// `{"subject","text","html"}`.
    var json: String {
        String(
            decoding: JSONValue.object([
                ("subject", .string(subject)), ("text", .string(text)), ("html", .string(html)),
            ]).bytes, as: UTF8.self)
    }

    /// The content a job's `json` holds; nil for text that is none.
    init?(json: String) {
        guard case .object(let members)? = try? JSONValue(parsing: json.utf8) else { return nil }
        let field = { (name: String) -> String? in
            if case .string(let value)? = members.first(where: { $0.0 == name })?.1 { value } else { nil }
        }
        guard let subject = field("subject"), let text = field("text"), let html = field("html") else { return nil }
        self.init(subject: subject, text: text, html: html)
    }

    init(subject: String, text: String, html: String) {
        self.subject = subject
        self.text = text
        self.html = html
    }
}
