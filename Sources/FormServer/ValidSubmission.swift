import FormEngine
import FormModel
import HTTPServer

/// A submission the server judged valid, as a handler receives it.
///
/// The handler may still refuse it for reasons only the application knows (a user name already
/// taken, a seat already booked): `refuse` answers exactly as the server answers an invalid submission.
///
/// ```swift
/// hooks.handle("account") { submission in
///     guard case .string(let user)? = submission.httpParameters["username"] else { return submission.refuse([]) }
///     if submission.record == nil, accounts[user] != nil {       // a new account under a taken name
///         return submission.refuse("username", "The user name '\(user)' is taken")
///     }
///     accounts[user] = submission.httpParameters
///     return .redirect(to: "/forms/account?user=\(user)")
/// }
/// ```
public struct ValidSubmission: Sendable {
    /// The whole verdict: values, states, both payloads.
    public let verdict: Verdict
    /// The request that brought it (headers, cookies, remote address).
    public let request: Request
    /// Whether the client asked for JSON rather than a page.
    public let wantsJSON: Bool
    /// The record being edited, if any (`RecordLookup`).
    let edited: EditedRecord?
    /// What the server needs to answer for the handler.
    let context: SubmissionContext

    /// XLForm's `httpParameters` of the submission.
    public var httpParameters: JSONValue { verdict.httpParameters }

    /// The stored record this submission edits, as the form's record provider gave it (`.record` or
    /// `.json` of `RecordLookup`); nil for a new record, and on a form that edits none. The handler saves
    /// the submission over this record, whatever the submission's own values say.
    public var record: JSONValue? { edited?.json }

    /// Refuses the submission with `refusals`, each an error on a field (code `refused`): `422` and the
    /// page again with the values kept, the errors beside their fields and in the summary (a form that
    /// edits records posting back to the same address), or `{"errors": [{"tag", "message", "code"}]}`
    /// for an API client — what an invalid submission gets.
    ///
    /// `tag` is a row's tag, a `multivaluedTag` (the list as a whole) or `multivaluedTag[n]` (value `n`
    /// of the list in `httpParameters`, from 0). A tag that names no field on the page (unknown, or
    /// hidden) makes an error about the whole form, listed in the summary; a disabled row or list keeps
    /// its tag, but is said in the summary only. `message` is in `language`,
    /// the form's `locale` when nil (`verdict.locale` is the reader's); an empty one is the built-in
    /// "is not valid", and an empty list refuses the form as a whole.
    public func refuse(_ refusals: [(tag: String, message: String)], language: String? = nil) -> Response {
        context.refused(context.site.engine.refusing(verdict, refusals, language: language))
    }

    /// Refuses the submission with one error on field `tag` (`refuse(_:language:)`).
    public func refuse(_ tag: String, _ message: String, language: String? = nil) -> Response {
        refuse([(tag: tag, message: message)], language: language)
    }

    /// `404`, as the server answers an address naming no record: a page in the reader's language (with
    /// `message` under its heading, else the built-in one) or `{"errors": [{"code": "notFound", …}]}`.
    /// For a record that disappeared between the page and its submission.
    public func notFound(_ message: String? = nil) -> Response {
        Answers.recordNotFound(context.site, locale: context.locale, message: message, json: wantsJSON)
    }
}

/// What a `ValidSubmission` needs to answer as the server would: its form, the reader's locale, and
/// the server's answer to an invalid verdict on the same request and record.
struct SubmissionContext: Sendable {
    let site: FormSite
    let locale: String
    let refused: @Sendable (Verdict) -> Response
}
