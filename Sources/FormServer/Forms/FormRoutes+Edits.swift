import FormEngine
import FormHTML
import FormModel
import FormStore
import HTTPServer
import Logging

/// Editable forms (`editable: true`): the person who sent a submission changes it through a private
/// link (`EditLinks`), which opens the form filled with the kept submission (`KeptRecords`); saving
/// it keeps a new version, unless someone saved one since the page was read.
extension FormRoutes {
    /// `hooks` with a record provider for each editable form whose submissions the server keeps in
    /// a database, and the ids of those forms. An editable form is left as it is, with a warning, when
    /// Swift keeps its submissions (a handler, or a record provider of its own) or the store is no database.
    static func editing(
        _ catalog: FormCatalog, hooks: FormHooks, store: (any SubmissionKeeper)?, links: EditLinks, logger: Logger
    ) -> (hooks: FormHooks, forms: Set<String>) {
        var hooks = hooks
        var forms = Set<String>()
        for id in catalog.ids {
            guard let form = catalog.forms[id], form.form.editable else { continue }
            if hooks.recordProviders[id] != nil || hooks.handlers[id] != nil {
                logger.warning(
                    "this form is editable, but Swift keeps its submissions: the server gives no edit links",
                    metadata: ["form": "\(id)"])
                continue
            }
            guard let database = (store as? DatabaseKeeper)?.database else {
                logger.warning(
                    "this form is editable, but edits need a database store (--store sqlite:PATH or postgres://…): the server gives no edit links",
                    metadata: ["form": "\(id)"])
                continue
            }
            hooks.recordProviders[id] = .later(
                KeptRecords(database: database, links: links, form: form, logger: logger).find)
            forms.insert(id)
        }
        return (hooks, forms)
    }

    /// Whether `site`'s kept submissions are changed through edit links (`editing`).
    func givesEditLinks(_ site: FormSite) -> Bool { editableForms.contains(site.id) }

    /// `GET /forms/{id}/thanks`: the thank-you page; with `?ref=`, the id of the submission kept, and
    /// with a valid `&edit=` for it, the link that changes it.
    func thanks(_ request: borrowing RequestView, site: FormSite) -> Response {
        let texts = site.page(site.locale(for: request.acceptLanguage)).texts
        // `?ref=` names the submission kept (`accepted`); anything else there is not shown.
        let id = request.query["ref"].flatMap(SubmissionID.init)
        var edit: String?
        if let id, givesEditLinks(site), let token = request.query[EditLinks.parameter],
            editLinks.submission(token, formID: site.id) == id
        {
            edit = editLinks.path(formID: site.id, id: id)
        }
        let page = MessagePage.thankYou(
            texts: texts, back: "/forms/\(site.id)", reference: id?.description, edit: edit)
        return Answers.html(.ok, page.render())
    }

    /// Saves `verdict`, a valid edit of the kept submission `kept`, as its next version, and answers as
    /// a new submission is answered; `409`/`412` when someone saved a version since the page was read,
    /// `404` when the submission was erased meanwhile, `503` when the store could not keep it.
    func saveEdit(
        _ verdict: Verdict, of kept: StoredSubmission, record: EditedRecord?, keeper: DatabaseKeeper, request: Request,
        site: FormSite, locale: String, json: Bool, version: String?
    ) async -> Response {
        let revision: Revision
        do {
            revision = try await keeper.revise(verdict, of: kept)
        } catch {
            logger.error(
                "edit not kept", metadata: ["form": "\(site.id)", "id": "\(kept.id)", "error": "\(error)"])
            return notKept(
                site, verdict: verdict, record: record, request: request, locale: locale, json: json, version: version)
        }
        switch revision {
        case .saved(let version):
            return accepted(site, verdict: verdict, json: json, id: kept.id, version: version)
        case .changed(let current):
            return changed(
                site, verdict: verdict, record: record, request: request, locale: locale, json: json,
                version: String(current))
        case .missing:
            return Answers.recordNotFound(site, locale: locale, message: nil, json: json)
        }
    }

    /// What a page opened through an edit link shows of the submission `kept` beyond its values: its
    /// id above the form, and its files beside their inputs (kept unless another is chosen).
    func showKept(_ kept: StoredSubmission, form: CompiledForm, in state: inout PageState) {
        state.editedReference = kept.id.description
        for index in HeldUploads.uploadRows(of: form) {
            guard let tag = form.rows[index].row.tag, let file = kept.files.first(where: { $0.tag == tag }) else {
                continue
            }
            state.heldFiles[index] = PageState.HeldFile(
                reference: nil, filename: file.filename, size: file.bytes.count)
        }
    }

}
