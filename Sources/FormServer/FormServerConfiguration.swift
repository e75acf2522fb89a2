import FormEngine
import HTTPServer

/// What `formwright serve` serves and how: folders plus the HTTP server's settings.
public struct FormServerConfiguration: Sendable {
    /// The folder of form descriptors (`Forms/`).
    public var formsFolder: String = "Forms"
    /// The folder served under `/static/` (`Public/`).
    public var publicFolder: String = "Public"
    /// Listening address, threads, body limit and hardening limits.
    public var server = ServerConfiguration()
    /// Whether each request is written to the access log.
    public var accessLog = true
    /// How long a shutdown waits for requests in flight before answering them 503.
    public var shutdownGracePeriod: Duration = .seconds(8)
    /// Whether `POST /forms/{id}/explain` answers (for form authors; off in production).
    public var explain = false
    /// The secret CSRF tokens are signed with (`FORMWRIGHT_SECRET`). Nil draws a random one at start,
    /// which is fine for one instance; instances behind one load balancer must share a secret.
    public var secret: String?
    /// Whether the site is reached over HTTPS (a TLS-terminating proxy in front): the CSRF cookie is then
    /// `__Host-fw_csrf`, `Secure`. Off, a browser would not send a `Secure` cookie back over plain HTTP.
    public var secureCookies = false
    /// How long an operator's session of `/admin` lasts from sign-in.
    public var adminSessionLifetime: Duration = .seconds(8 * 3600)
    /// The largest file an upload row accepts, in bytes (the body limit still applies to the whole post).
    public var maximumFileSize = 1 << 20
    /// The steps of matching work one submission's conditions and patterns may take together
    /// (`EvaluationBudget`); past them the submission is refused with `tooLongToCheck`.
    public var checkingBudget = FormEngine.submissionBudget
    /// Whether the body limit (`server.maxBodySize`) is raised at start, where a form needs it, to what
    /// that form's largest post can carry: every upload row's file at `maximumFileSize` and
    /// `uploadReserve` for the rest. On by default, so that the defaults never refuse the files a page
    /// promises to take; `formwright serve` turns it off when `--max-body` is given: the operator's
    /// limit stands, with a warning at start naming the forms it is too small for.
    public var bodyLimitFitsUploads = true
    /// The room a post with files leaves for its other fields and the multipart framing, when the body
    /// limit is raised to carry them.
    public static let uploadReserve = 1 << 20
    /// The least room a given body limit keeps for the rest of a form beside a file (less for a body
    /// under half a megabyte: an eighth of it): the largest file a page promises is what is left.
    public static let formRoom = 64 << 10
    /// A body limit past which raising it is a warning, not news: each request's body is held in memory,
    /// so give `--max-body` to bound it.
    public static let largeBody = 64 << 20
    /// Where valid submissions of forms without a Swift handler are kept, as JSON lines a file per form
    /// (`SubmissionStore`); nil keeps none (they are answered, then gone).
    public var submissionsFolder: String?
    /// The database valid submissions of forms without a Swift handler are kept in (`--store`):
    /// `sqlite:PATH`, or `none`; nil is `none`. One of this and `submissionsFolder` at most.
    public var store: String?

    /// The SMTP server e-mail deliveries go through (`--smtp`): `smtp://[user:password@]host:port`
    /// (STARTTLS when offered; `?starttls=required` refuses a server without it) or `smtps://…`.
    public var smtp: String?
    /// The address e-mail deliveries come from (`--mail-from`).
    public var mailFrom: String?
    /// How many attempts a delivery gets before it has failed for good.
    public var deliveryAttempts = 16
    /// The wait after a delivery's first failed attempt; each later one doubles, up to `deliveryMaxDelay`.
    public var deliveryBackoff: Duration = .seconds(5)
    /// The longest wait between two attempts at a delivery.
    public var deliveryMaxDelay: Duration = .seconds(86_400)
    /// Where webhooks' signing secrets are read (`secretEnv`): the process's environment.
    public var environment: [String: String] = [:]

    /// The defaults: `Forms`, `Public`, 127.0.0.1:8080.
    public init() {}
}
