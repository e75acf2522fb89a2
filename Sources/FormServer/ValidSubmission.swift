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

    /// The submission as a value of a `Decodable` type (`Verdict.decode`): a form made from that type
    /// with `FormDefinition(model:)` gives it back, `let event = try submission.decode(Event.self)`.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T { try verdict.decode(type) }

    /// The stored record this submission edits, as the form's record provider gave it (`.record` or
    /// `.json` of `RecordLookup`); nil for a new record, and on a form that edits none. The handler saves
    /// the submission over this record, whatever the submission's own values say.
    public var record: JSONValue? { edited?.json }

    /// The version of the record this submission edits, as the record provider gave it now (nil for a
    /// new record, or a provider that keeps no versions). The server has checked that the post was
    /// made from this version; a handler that saves with compare-and-swap (`UPDATE … WHERE version = ?`)
    /// answers `changed(version:)` when the record was saved again since.
    public var version: String? { edited?.version }

    /// Answers `value` as JSON with `status`, as the server answers its own JSON: `no-store`, for an answer
    /// that may hold a stored record no cache should keep, and `nosniff`.
    ///
    /// ```swift
    /// if submission.wantsJSON { return submission.json(.object([("user", .string(user))])) }
    /// ```
    public func json(_ value: JSONValue, status: HTTPStatus = .ok) -> Response { Answers.json(status, value) }

    /// Answers as the server answers a post made from an older version of its record: `409` and the
    /// page again, the values kept and the summary saying that someone else saved the record, carrying
    /// `version` (the record's version now) so that sending it again saves; or `412` JSON with code
    /// `conflict` and `version` as the `ETag`. For a save that found the record changed after the server's
    /// check. `version` must be an entity tag's text (`RecordLookup`).
    public func changed(version: String) -> Response {
        guard RecordLookup.isValid(version: version) else {
            return .error(.internalServerError, "the record's version is not an entity tag's text")
        }
        return context.changed(version)
    }

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
    /// The server's answer to a post made from an older version, the record being at this one now.
    let changed: @Sendable (String) -> Response
}
