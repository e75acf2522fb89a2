import FormModel

/// A compiled form's page, built once: every constant byte (ids, labels, options, the rules JSON)
/// is escaped and laid out at init, and the fresh page is rendered then. `renderFresh(csrfToken:)`
/// copies a prefix, the escaped token and a suffix; `render(state:)` re-renders with values and errors.
///
/// ```swift
/// let page = FormPage(form: compiled, initialState: stateFromDefaults)
/// let bytes = page.renderFresh(csrfToken: token)  // GET
/// let again = page.render(state: verdictState)     // 422 with errors inline
/// ```
///
/// A class: the server looks a page up on every request, and handing out a reference costs one
/// retain where copying the page's stored byte arrays would cost one each.
public final class FormPage: Sendable {
    /// The state of a fresh page (conditions evaluated on the defaults); its token is ignored.
    public let initialState: PageState
    let layout: FormLayout
    /// The fresh page before and after the token's escaped bytes, and the fresh page with no token field.
    let freshPrefix: [UInt8]
    let freshSuffix: [UInt8]
    let freshWithoutToken: [UInt8]

    /// Builds the page of `form`. `initialState` is what a fresh page shows (which rows start hidden,
    /// disabled, required); `texts` default to the form's locale with its `messages` applied.
    /// `uploadLimits` are the upload rows' limits by row index, in the texts' language.
    public init(
        form: CompiledForm, initialState: PageState, texts: PageTexts? = nil, uploadLimits: [Int: UploadLimit] = [:]
    ) {
        layout = FormLayout(form: form, texts: texts ?? PageTexts(form: form.form), uploadLimits: uploadLimits)
        self.initialState = initialState
        var fresh = initialState
        fresh.csrfToken = ""
        var writer = HTMLWriter()
        let offset = layout.write(state: fresh, into: &writer) ?? writer.count
        freshPrefix = Array(writer.bytes[..<offset])
        freshSuffix = Array(writer.bytes[offset...])
        fresh.csrfToken = nil
        writer = HTMLWriter(capacity: freshPrefix.count + freshSuffix.count)
        _ = layout.write(state: fresh, into: &writer)
        freshWithoutToken = writer.bytes
    }

    /// The form the page shows.
    public var form: CompiledForm { layout.form }

    /// The fixed texts the page uses.
    public var texts: PageTexts { layout.texts }

    /// The fresh page with `csrfToken` in its `_csrf` field (no field when nil). Nothing is walked or
    /// escaped but the token.
    public func renderFresh(csrfToken: String?) -> [UInt8] {
        guard let csrfToken else { return freshWithoutToken }
        var writer = HTMLWriter(capacity: freshPrefix.count + freshSuffix.count + csrfToken.utf8.count)
        writer.rendered(freshPrefix)
        writer.attributeValue(csrfToken)
        writer.rendered(freshSuffix)
        return writer.bytes
    }

    /// The fresh page's bytes before its token's value and after it, for a server that keeps the page
    /// as a template and puts each request's token between them, when `isVerbatim(csrfToken:)`.
    public var freshPartsAroundToken: (prefix: [UInt8], suffix: [UInt8]) { (freshPrefix, freshSuffix) }

    /// Whether `csrfToken` stands in the page as it is, with nothing to escape: a base64url token does.
    public static func isVerbatim(csrfToken: String) -> Bool {
        HTMLEscaping.isUnchanged(attributeValue: csrfToken)
    }

    /// The page for `state`: its values, errors (inline and in a summary), hidden, disabled and
    /// required flags, and token.
    public func render(state: PageState) -> [UInt8] {
        var writer = HTMLWriter(capacity: freshPrefix.count + freshSuffix.count + 1024)
        _ = layout.write(state: state, into: &writer)
        return writer.bytes
    }

    /// How many bytes the fresh page has, not counting its token.
    public var freshByteCount: Int { freshPrefix.count + freshSuffix.count }
}
