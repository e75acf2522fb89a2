import FormEngine
import FormHTML
import FormModel
import FormStore
import Foundation
import HTTPServer
import Logging

/// One submission: read-only in its form's sections, its files, versions and deliveries; and its deletion.
extension AdminRoutes {
    /// `GET /admin/forms/{id}/submissions/{sid}?version=`: the submission as it is, or as version
    /// `version` was.
    func submission(_ context: Context) throws -> Response {
        let id = try submissionID(context)
        guard let current = try context.database.submission(formID: context.formID, id: id) else {
            throw notFound(context)
        }
        let path = "/admin" + FormRoutes.path(context.formID) + "/submissions/" + id.description
        // Every version, for a submission edited at least once; the asked one is drawn.
        let versions = current.version > 1 ? try context.database.versions(formID: context.formID, id: id) ?? [] : []
        let asked = context.request.query["version"].flatMap { number in versions.first { String($0.version) == number }
        }
        if context.request.query["version"] != nil, asked == nil { throw notFound(context) }
        let shown = asked ?? current.asVersion
        var view = SubmissionView(
            name: name(context.formID), id: id.description, received: Self.minute(current.received),
            version: shown.version,
            sections: context.form.map {
                RecordSections(form: $0, texts: context.texts).sections(
                    httpParameters: shown.httpParameters, files: shown.files,
                    fileLink: { tag in path + "/files/" + FormRoutes.segment(tag) + "?version=\(shown.version)" })
            } ?? [])
        if shown.version > 1 { view.edited = Self.minute(shown.saved) }
        view.versions = versions.map { version in
            SubmissionView.Version(
                number: version.version, saved: Self.minute(version.saved), href: path + "?version=\(version.version)",
                isShown: version.version == shown.version)
        }
        view.deliveries = try context.database.outbox.deliveries(formID: context.formID, submission: id).map { job in
            SubmissionView.Delivery(
                kind: job.delivery.kind, destination: job.delivery.shownDestination, state: job.delivery.state.rawValue,
                attempts: job.attempts.count, lastError: job.attempts.last?.error)
        }
        if context.may(.delete) { view.delete = path + "/delete" }
        return Self.html(.ok, AdminPages.submission(frame: context.frame, view: view))
    }

    /// `GET …/submissions/{sid}/files/{tag}?version=`: a file, as an attachment no browser renders.
    func download(_ context: Context) throws -> Response {
        let id = try submissionID(context)
        let tag = context.request.parameters["tag"] ?? ""
        guard let versions = try context.database.versions(formID: context.formID, id: id) else {
            throw notFound(context)
        }
        let number = context.request.query["version"]
        let version = number.map { number in versions.first { String($0.version) == number } } ?? versions.last
        guard let file = version?.files.first(where: { $0.tag == tag }) else { throw notFound(context) }
        return SubmissionAPI.attachment(file)
    }

    /// `GET …/submissions/{sid}/delete`: the confirmation, for a key that may delete.
    func confirmDelete(_ context: Context) throws -> Response {
        let id = try submissionID(context)
        guard try context.database.submission(formID: context.formID, id: id) != nil else { throw notFound(context) }
        let path = "/admin" + FormRoutes.path(context.formID) + "/submissions/" + id.description
        let page = AdminPages.confirmDelete(
            frame: context.frame, name: name(context.formID), id: id.description, action: path + "/delete", back: path)
        return Self.html(.ok, page)
    }

    /// `POST …/submissions/{sid}/delete`: erasure, files, versions and deliveries included; back to the
    /// form's submissions, which say so.
    func delete(_ context: Context) throws -> Response {
        let id = try submissionID(context)
        guard try context.database.delete(formID: context.formID, id: id) else { throw notFound(context) }
        logger.notice(
            "submission erased", metadata: ["form": "\(context.formID)", "id": "\(id)", "key": "\(context.key.name)"])
        return .redirect(to: "/admin" + FormRoutes.path(context.formID) + "?deleted=" + id.description)
    }

    /// The `{sid}` of the address; one that is no id is no submission.
    private func submissionID(_ context: Context) throws -> SubmissionID {
        guard let id = SubmissionID(context.request.parameters["sid"] ?? "") else { throw notFound(context) }
        return id
    }

    private func notFound(_ context: Context) -> Refusal {
        Refusal(status: .notFound, title: context.texts.notFoundTitle, message: context.texts.notFound)
    }
}

/// A kept submission laid out in its form's sections, each answer as the page shows it: options by
/// their titles, yes or no, files as links, a multivalued section's items as a list, a password as
/// kept as a hash. A row the payload leaves out (hidden when sent, or not kept) is left out.
struct RecordSections {
    let form: CompiledForm
    let texts: AdminTexts

    func sections(
        httpParameters: String, files: [StoredFile], fileLink: @escaping (String) -> String
    ) -> [SubmissionView.Section] {
        var values: [String: JSONValue] = [:]
        if case .object(let members)? = try? JSONValue(parsing: httpParameters.utf8) {
            for (key, value) in members where values[key] == nil { values[key] = value }
        }
        let file = { (tag: String) -> SubmissionView.Value in
            guard let stored = files.first(where: { $0.tag == tag }) else { return .noAnswer }
            return .file(name: stored.filename.isEmpty ? tag : stored.filename, href: fileLink(tag))
        }
        return form.sections.compactMap { section in
            var fields: [(label: String, value: SubmissionView.Value)] = []
            if let tag = section.section.multivaluedTag {
                guard let value = values[tag] else { return nil }
                let template = section.section.rowTemplate
                guard case .array(let items) = value, !items.isEmpty else {
                    return SubmissionView.Section(
                        title: section.section.title, fields: [(section.itemTitle, .noAnswer)])
                }
                for (position, item) in items.enumerated() {
                    let label = section.itemName(at: position)
                    let answer =
                        template?.type.valueKind == .file
                        ? file("\(tag)[\(position)]") : self.value(item, row: template)
                    fields.append((label, answer))
                }
                return SubmissionView.Section(title: section.section.title, fields: fields)
            }
            for index in section.rows {
                let row = form.rows[index].row
                guard row.type.takesInput, let tag = row.tag, let value = values[tag] else { continue }
                let answer = row.type.valueKind == .file ? file(tag) : self.value(value, row: row)
                fields.append((row.title ?? tag, answer))
            }
            return fields.isEmpty ? nil : SubmissionView.Section(title: section.section.title, fields: fields)
        }
    }

    /// `value`, an answer to `row`, as the page shows it.
    private func value(_ value: JSONValue, row: Row?) -> SubmissionView.Value {
        let title = { (option: String) in row?.options.first { $0.value == option }?.title ?? option }
        switch value {
        case .null: return .noAnswer
        case .bool(let flag): return .text(flag ? texts.yes : texts.no)
        case .string(let text):
            if row?.type.isSecret == true { return .secret }
            return .text(row?.type.needsOptions == true ? title(text) : text)
        case .number(let text): return .text(text)
        case .array(let values):
            return .list(
                values.map { item in
                    if case .string(let text) = item { title(text) } else { SubmissionTable.text(item) }
                })
        case .object: return .text(SubmissionTable.text(value))
        }
    }
}
