/// A page with a title, a message and an optional link: the thank-you page after a valid post, the
/// 403 page when a CSRF token fails, 404s.
///
/// ```swift
/// let texts = PageTexts(locale: form.locale)
/// MessagePage.thankYou(texts: texts, back: "/forms/event").render()
/// ```
public struct MessagePage: Sendable, Hashable {
    /// The heading and the `<title>`.
    public var title: String
    /// The paragraph under the heading.
    public var message: String
    /// A link under the message: where to go next. Dropped when its URL runs script.
    public var link: (href: String, text: String)? {
        get { linkHref.map { ($0, linkText) } }
        set {
            linkHref = newValue?.href
            linkText = newValue?.text ?? ""
        }
    }
    /// The page's language (`<html lang>`).
    public var language: String

    private var linkHref: String?
    private var linkText = ""
    /// The languages of the message and the link text, when not the page's.
    private var messageLanguage: String?
    private var linkLanguage: String?
    /// A second paragraph, in English: the server's technical reason, under the reader's own words.
    private var detail: String?
    /// A paragraph naming the submission kept, and its language when not the page's.
    private var reference: String?
    private var referenceLanguage: String?
    /// The private link that changes the submission kept, with the paragraph above it.
    private var edit: EditLink?

    private struct EditLink: Sendable, Hashable {
        let href: String
        let note: String
        let text: String
        /// The languages of `note` and `text`, when not the page's.
        let noteLanguage: String?
        let textLanguage: String?
    }

    /// A page saying `message` under `title`.
    public init(title: String, message: String, language: String = "en", link: (href: String, text: String)? = nil) {
        self.title = title
        self.message = message
        self.language = language
        self.link = link
    }

    /// The page after a valid submission, in the language of its title (the descriptor may give it).
    /// The thank-you page; `reference` names the submission kept, and `edit` is the address that
    /// changes it, for a form whose submissions can be changed later.
    public static func thankYou(
        texts: PageTexts, back: String? = nil, reference: String? = nil, edit: String? = nil
    ) -> MessagePage {
        var texts = texts
        texts.pageLanguage = texts.language(of: "thankYou")
        var page = MessagePage(
            title: texts.thankYou, message: texts.thankYouMessage, language: texts.language(of: "thankYou"),
            link: back.map { ($0, texts.back) })
        page.messageLanguage = texts.lang("thankYouMessage")
        page.linkLanguage = texts.lang(language: texts.language)
        page.reference = reference.map { texts.thankYouReference.replacing("{reference}", with: $0) }
        page.referenceLanguage = texts.lang("thankYouReference")
        page.edit = edit.map {
            EditLink(
                href: $0, note: texts.editLinkNote, text: texts.editLink, noteLanguage: texts.lang("editLinkNote"),
                textLanguage: texts.lang("editLink"))
        }
        return page
    }

    /// The 403 page for a missing or wrong CSRF token.
    public static func sessionExpired(texts: PageTexts, back: String? = nil) -> MessagePage {
        MessagePage(
            title: texts.sessionExpired, message: texts.sessionExpiredMessage, language: texts.language,
            link: back.map { ($0, texts.back) })
    }

    /// The 413 page: what was sent is over the server's body limit, `size` as a person reads it (`1 MB`).
    public static func tooLarge(texts: PageTexts, size: String) -> MessagePage {
        MessagePage(
            title: texts.tooLarge, message: texts.tooLargeMessage.replacing("{size}", with: size),
            language: texts.language)
    }

    /// The page for a request the server refuses before any form sees it (400, 405, 415): the reader's
    /// words for it, then `reason`, the server's own in English, marked as such.
    public static func refused(texts: PageTexts, reason: String) -> MessagePage {
        var page = MessagePage(
            title: texts.refused, message: texts.refusedMessage, language: texts.language, link: ("/", texts.back))
        page.detail = reason
        return page
    }

    /// The 404 page.
    public static func notFound(texts: PageTexts) -> MessagePage {
        MessagePage(
            title: texts.notFound, message: texts.notFoundMessage, language: texts.language, link: ("/", texts.back))
    }

    /// The 404 page for an address that names a stored record which does not exist: `message` is the
    /// application's (in `messageLanguage`), else the built-in one.
    public static func recordNotFound(
        texts: PageTexts, message: String? = nil, messageLanguage: String? = nil, back: String? = nil
    ) -> MessagePage {
        var page = MessagePage(
            title: texts.recordNotFound, message: message ?? texts.recordNotFoundMessage, language: texts.language,
            link: back.map { ($0, texts.back) })
        if message != nil, let messageLanguage {
            var marking = texts
            marking.pageLanguage = texts.language
            page.messageLanguage = marking.lang(language: messageLanguage)
        }
        return page
    }

    /// The page for an address whose stored record no longer fits its form, so it cannot be edited.
    public static func recordRefused(texts: PageTexts, back: String? = nil) -> MessagePage {
        MessagePage(
            title: texts.recordRefused, message: texts.recordRefusedMessage, language: texts.language,
            link: back.map { ($0, texts.back) })
    }

    /// The page's bytes.
    public func render() -> [UInt8] {
        var writer = HTMLWriter()
        PageShell.writeStart(language: language, title: HTML(text: title), errorPrefix: nil, into: &writer)
        writer.markup("<p class=\"fw-message\"")
        writer.lang(messageLanguage)
        writer.markup(">")
        writer.text(message)
        writer.markup("</p>\n")
        if let reference {
            writer.markup("<p class=\"fw-reference\"")
            writer.lang(referenceLanguage)
            writer.markup(">")
            writer.text(reference)
            writer.markup("</p>\n")
        }
        if let edit, let href = SafeURL.link(edit.href) {
            writer.markup("<p")
            writer.lang(edit.noteLanguage)
            writer.markup(">")
            writer.text(edit.note)
            writer.markup("</p>\n<p class=\"fw-edit\"><a")
            writer.attribute("href", href)
            writer.lang(edit.textLanguage)
            writer.markup(">")
            writer.text(edit.text)
            writer.markup("</a></p>\n")
        }
        if let detail {
            writer.markup("<p class=\"fw-detail\"")
            // The reason is English whatever the page's language: screen readers must say it so.
            if language != "en" { writer.attribute("lang", "en") }
            writer.markup(">")
            writer.text(detail)
            writer.markup("</p>\n")
        }
        if let linkHref, let href = SafeURL.link(linkHref) {
            writer.markup("<p><a")
            writer.attribute("href", href)
            writer.lang(linkLanguage)
            writer.markup(">")
            writer.text(linkText)
            writer.markup("</a></p>\n")
        }
        PageShell.writeEnd(into: &writer)
        return writer.bytes
    }
}
