import FormEngine
import FormHTML
import FormModel
import FormStore
import Foundation

/// Files that survive a refused post. When a browser's post is refused for another row, each valid
/// upload of a plain (not multivalued) upload row is held in the store for an hour under a random
/// reference; the page shown again names it and posts the reference back as `_held.<tag>`, signed
/// for this form, this row and this reader's CSRF nonce, so no other page or reader can claim it. The
/// next post that leaves the row empty takes the held file (a post refused again holds it anew); one
/// that chooses another file replaces it.
struct HeldUploads: Sendable {
    let database: any SubmissionDatabase
    let csrf: CSRFGuard

    /// How long a held file waits for the next post.
    static let lifetime: UInt64 = 60 * 60 * 1000
    /// The posted name before a row's tag.
    static let prefix = "_held."

    /// Holds the valid uploads of `verdict`, a refused post of form `formID` by the reader of `nonce`,
    /// but those of `kept`, the files of the submission it edits, which the store keeps anyway (a copy
    /// would outlive the submission's erasure); what the page shows for each, by row index. A blocking call.
    func hold(
        _ verdict: Verdict, formID: String, nonce: String, except kept: [StoredFile] = []
    ) throws(StoreError) -> [Int: PageState.HeldFile] {
        var held: [Int: PageState.HeldFile] = [:]
        let refused = Set(verdict.errors.compactMap(\.row))
        let now = Self.now()
        for index in Self.uploadRows(of: verdict.form) where !refused.contains(index) && !verdict.rowHidden[index] {
            guard case .file(let file)? = verdict.values[index], let tag = verdict.form.rows[index].row.tag,
                !kept.contains(where: { $0.tag == tag && $0.filename == file.filename && $0.bytes == file.bytes })
            else { continue }
            let reference = csrf.newNonce()
            try database.hold(
                StoredFile(tag: tag, filename: file.filename, contentType: file.contentType, bytes: file.bytes),
                reference: reference, formID: formID, expires: now + Self.lifetime, now: now)
            held[index] = PageState.HeldFile(
                reference: signed(reference, formID: formID, tag: tag, nonce: nonce), filename: file.filename,
                size: file.size)
        }
        return held
    }

    /// Puts the held file back under each upload row of `form` that the post left without a file and
    /// names a held one for, signed for this reader. A blocking call.
    func restore(
        into fields: inout SubmittedFields, form: CompiledForm, formID: String, nonce: String
    )
        throws(StoreError)
    {
        for index in Self.uploadRows(of: form) {
            guard let tag = form.rows[index].row.tag,
                case .text(let value)? = fields.first(Self.prefix + tag),
                !Self.hasFile(fields, tag),
                let reference = reference(value, formID: formID, tag: tag, nonce: nonce),
                let file = try database.takeHeld(reference: reference, formID: formID, now: Self.now())
            else { continue }
            fields.replace(
                tag,
                with: .file(UploadedFile(filename: file.filename, contentType: file.contentType, bytes: file.bytes)))
        }
    }

    /// Puts each of `files`, a kept submission's, back under its upload row of `form` when the post
    /// left that row without a file: an edit keeps a file unless another is chosen.
    static func putBack(_ files: [StoredFile], into fields: inout SubmittedFields, form: CompiledForm) {
        for index in uploadRows(of: form) {
            guard let tag = form.rows[index].row.tag, !hasFile(fields, tag),
                let file = files.first(where: { $0.tag == tag })
            else { continue }
            fields.replace(
                tag,
                with: .file(UploadedFile(filename: file.filename, contentType: file.contentType, bytes: file.bytes)))
        }
    }

    /// Whether `fields` bring a file under `tag`: a browser posts an empty one for an input left empty.
    private static func hasFile(_ fields: SubmittedFields, _ tag: String) -> Bool {
        fields[tag].contains { if case .file(let file) = $0 { file.size > 0 } else { false } }
    }

    /// Whether `verdict` holds a file in an upload row outside multivalued sections. Asked of every
    /// refused post, so it walks the rows without building a list of them.
    static func hasFiles(_ verdict: Verdict) -> Bool {
        anyUploadRow(of: verdict.form) { index in
            if case .file? = verdict.values[index] { true } else { false }
        }
    }

    /// Whether `fields` name any held file. Asked of every browser post, as `hasFiles`.
    static func named(in fields: SubmittedFields, form: CompiledForm) -> Bool {
        anyUploadRow(of: form) { index in form.rows[index].row.tag.map { fields.contains(prefix + $0) } ?? false }
    }

    /// Whether `test` holds for an upload row of `form` outside multivalued sections.
    private static func anyUploadRow(of form: CompiledForm, _ test: (Int) -> Bool) -> Bool {
        for section in form.sections where section.section.multivaluedTag == nil {
            for index in section.rows where form.rows[index].row.type.valueKind == .file && test(index) { return true }
        }
        return false
    }

    /// The indexes of `form`'s upload rows outside multivalued sections.
    static func uploadRows(of form: CompiledForm) -> [Int] {
        form.sections.filter { $0.section.multivaluedTag == nil }.flatMap(\.rows).filter {
            form.rows[$0].row.type.valueKind == .file
        }
    }

    /// `reference` with its signature: the CSRF guard's MAC of it, keyed to the form, row and reader.
    private func signed(_ reference: String, formID: String, tag: String, nonce: String) -> String {
        reference + "." + csrf.token(formID: Self.purpose(formID, tag, nonce), nonce: reference)
    }

    /// The reference `value` carries, if its signature is this form's, row's and reader's.
    private func reference(_ value: String, formID: String, tag: String, nonce: String) -> String? {
        guard let dot = value.lastIndex(of: ".") else { return nil }
        let reference = String(value[..<dot])
        let signature = String(value[value.index(after: dot)...])
        return csrf.verify(token: signature, formID: Self.purpose(formID, tag, nonce), nonce: reference)
            ? reference : nil
    }

    private static func purpose(_ formID: String, _ tag: String, _ nonce: String) -> String {
        "held\u{0}\(formID)\u{0}\(tag)\u{0}\(nonce)"
    }

    private static func now() -> UInt64 { Date().milliseconds }
}
