import ArgumentParser
import FormServer
import Foundation
import HTTPServer
import Logging

/// `formwright serve`: runs the form server until SIGTERM or SIGINT.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the forms in a folder over HTTP.",
        discussion: """
            Stops gracefully on SIGTERM or SIGINT: stops accepting, finishes requests in flight, exits 0. \
            SIGHUP is logged and ignored: nothing is reloaded; restart to read changed forms.
            A flag wins over its environment variable; the variable wins over the default.
            CSRF tokens are signed with FORMWRIGHT_SECRET (environment only); without it a random secret is \
            drawn at start, so instances behind one load balancer must share one FORMWRIGHT_SECRET.
            """
    )

    @Option(help: "Address to listen on; 0.0.0.0 for every interface. (env: FORMWRIGHT_HOST, default: 127.0.0.1)")
    var host: String?

    @Option(help: "TCP port; 0 picks a free one. (env: FORMWRIGHT_PORT, default: 8080)")
    var port: Int?

    @Option(help: "Folder of form descriptors. (env: FORMWRIGHT_FORMS, default: Forms)")
    var forms: String?

    @Option(
        name: .customLong("public"), help: "Folder served under /static/. (env: FORMWRIGHT_PUBLIC, default: Public)")
    var publicFolder: String?

    @Option(help: "Worker threads. (env: FORMWRIGHT_THREADS, default: the number of cores)")
    var threads: Int?

    @Option(
        help:
            "Largest request body, in bytes or with k/m suffix (1m = 1 MiB). (env: FORMWRIGHT_MAX_BODY, default: 1m, or as much as a form with upload rows needs for its files at --max-file each, plus 1m)"
    )
    var maxBody: String?

    @Option(
        help:
            "Largest request line and header fields together, in bytes or with a k suffix; larger gets 431, and a Cookie field counts twice. Each connection holds this and 2k more, cleared on every request: raise it only for clients that need it. (env: FORMWRIGHT_MAX_HEADER, default: 30k)"
    )
    var maxHeader: String?

    @Option(help: "Open connections at most. (env: FORMWRIGHT_CONNECTION_LIMIT, default: 1024)")
    var connectionLimit: Int?

    @Option(
        help:
            "Open connections at most per client IP; 0 = no limit, for use behind a proxy. (env: FORMWRIGHT_PER_IP_LIMIT, default: 64)"
    )
    var perIPLimit: Int?

    @Option(help: "Seconds a silent connection stays open. (env: FORMWRIGHT_TIMEOUT, default: 10)")
    var timeout: Int?

    @Option(
        help:
            "Log level: trace, debug, info, notice, warning, error, critical. (env: FORMWRIGHT_LOG_LEVEL, default: info)"
    )
    var logLevel: String?

    @Flag(help: "Write no access log line per request. (env: FORMWRIGHT_ACCESS_LOG=off)")
    var noAccessLog = false

    @Flag(
        help:
            "Answer POST /forms/{id}/explain with the whole verdict as JSON, for form authors. (env: FORMWRIGHT_EXPLAIN=on)"
    )
    var explain = false

    @Option(
        help: "Largest file an upload row accepts, in bytes or with k/m suffix. (env: FORMWRIGHT_MAX_FILE, default: 1m)"
    )
    var maxFile: String?

    @Option(
        help:
            "Folder to keep valid submissions in, as JSON lines a file per form (forms with a Swift handler excepted), instead of a database. (env: FORMWRIGHT_SUBMISSIONS)"
    )
    var submissions: String?

    @Option(
        help:
            "Database to keep valid submissions in (forms with a Swift handler excepted): sqlite:PATH, made when missing, postgres://USER:PASSWORD@HOST:PORT/DATABASE, or none. (env: FORMWRIGHT_STORE, else a postgres:// or postgresql:// DATABASE_URL; default: sqlite:data/formwright.db, or none with --submissions)"
    )
    var store: String?

    @Flag(
        help:
            "The site is reached over HTTPS (a TLS proxy in front): the CSRF cookie becomes __Host-fw_csrf, Secure. (env: FORMWRIGHT_SECURE_COOKIES=on)"
    )
    var secureCookies = false

    @Option(
        help:
            "Minutes an operator's sign-in to /admin lasts. (env: FORMWRIGHT_ADMIN_SESSION_MINUTES, default: 480)"
    )
    var adminSessionMinutes: Double?

    @Option(
        help:
            "SMTP server for forms that deliver by e-mail: smtp://[user:password@]host:port (STARTTLS when offered; ?starttls=required to insist) or smtps://…. A password is better given in the environment, which ps does not show. (env: FORMWRIGHT_SMTP)"
    )
    var smtp: String?

    @Option(help: "The address e-mail deliveries come from. (env: FORMWRIGHT_MAIL_FROM)")
    var mailFrom: String?

    @Option(
        help: "Attempts a delivery gets before it has failed. (env: FORMWRIGHT_DELIVERY_ATTEMPTS, default: 16)")
    var deliveryAttempts: Int?

    @Option(
        help:
            "Seconds before a failed delivery's second attempt; each later wait doubles, up to --delivery-max-delay. (env: FORMWRIGHT_DELIVERY_BACKOFF, default: 5)"
    )
    var deliveryBackoff: Double?

    @Option(
        help:
            "Longest wait in seconds between two attempts at a delivery. (env: FORMWRIGHT_DELIVERY_MAX_DELAY, default: 86400)"
    )
    var deliveryMaxDelay: Double?

    /// Where submissions are kept when nothing says otherwise: under the process's working directory.
    static let defaultStore = "sqlite:data/formwright.db"

    /// The store the environment names: `FORMWRIGHT_STORE`, else `DATABASE_URL` when it is a
    /// PostgreSQL URL (as hosting platforms set it; another scheme there is some other program's).
    static func storeNamed(by variables: [String: String]) -> String? {
        if let store = variables["FORMWRIGHT_STORE"], !store.isEmpty { return store }
        return variables["DATABASE_URL"].flatMap { StoreLocation.isPostgres($0) ? $0 : nil }
    }

    func run() throws {
        let environment = EnvironmentSettings(ProcessInfo.processInfo.environment)
        let flagLevel = try logLevel.map { text in
            guard let level = Logger.Level(rawValue: text.lowercased()) else {
                throw ValidationError(
                    "--log-level '\(text)' is not one of trace, debug, info, notice, warning, error, critical")
            }
            return level
        }
        let level = try environment.value(flagLevel, "FORMWRIGHT_LOG_LEVEL", default: Logger.Level.info) {
            Logger.Level(rawValue: $0.lowercased())
        }
        let sink = LogSink()
        LoggingSystem.bootstrap { LineLogHandler(label: $0, sink: sink, level: level) }
        defer { sink.flush() }
        let logger = Logger(label: "formwright")
        // Before anything starts: a SIGHUP's default action would end the server without a word.
        let signals = Signals(stop: [SIGTERM, SIGINT], notice: [SIGHUP]) { number in
            logger.warning(
                "\(Signals.name(number)) ignored: formwright does not reload its forms or settings; restart it to read changes (SIGTERM stops it gracefully)"
            )
        }
        for warning in environment.unknownVariableWarnings() { logger.warning("\(warning)") }

        var configuration = FormServerConfiguration()
        configuration.server.host = try environment.value(host, "FORMWRIGHT_HOST", default: "127.0.0.1") { $0 }
        configuration.server.port = try environment.value(port, "FORMWRIGHT_PORT", default: 8080) { Int($0) }
        configuration.formsFolder = try environment.value(forms, "FORMWRIGHT_FORMS", default: "Forms") { $0 }
        configuration.publicFolder = try environment.value(publicFolder, "FORMWRIGHT_PUBLIC", default: "Public") { $0 }
        configuration.server.threads = try environment.value(
            threads, "FORMWRIGHT_THREADS", default: ServerConfiguration.processorCount
        ) { Int($0) }
        configuration.server.maxBodySize = try environment.value(
            maxBody.map { try ByteSize.parse($0, option: "--max-body", refusingZeroAs: "every request with a body") },
            "FORMWRIGHT_MAX_BODY", default: 1 << 20
        ) { try ByteSize.parse($0, option: "FORMWRIGHT_MAX_BODY", refusingZeroAs: "every request with a body") }
        configuration.server.maxHeaderSize = try environment.value(
            maxHeader.map { try ByteSize.parse($0, option: "--max-header") }, "FORMWRIGHT_MAX_HEADER", default: 30 << 10
        ) { try ByteSize.parse($0, option: "FORMWRIGHT_MAX_HEADER") }
        configuration.server.connectionLimit = try environment.value(
            connectionLimit, "FORMWRIGHT_CONNECTION_LIMIT", default: 1024
        ) { Int($0) }
        configuration.server.perIPConnectionLimit = try environment.value(
            perIPLimit, "FORMWRIGHT_PER_IP_LIMIT", default: 64
        ) { Int($0) }
        configuration.server.connectionTimeout = try environment.value(timeout, "FORMWRIGHT_TIMEOUT", default: 10) {
            Int($0)
        }
        let accessLogOff = try environment.value(noAccessLog ? true : nil, "FORMWRIGHT_ACCESS_LOG", default: false) {
            ["off": true, "false": true, "0": true, "on": false, "true": false, "1": false][$0.lowercased()]
        }
        configuration.accessLog = !accessLogOff
        configuration.explain = try environment.value(explain ? true : nil, "FORMWRIGHT_EXPLAIN", default: false) {
            ["on": true, "true": true, "1": true, "off": false, "false": false, "0": false][$0.lowercased()]
        }
        configuration.secureCookies = try environment.value(
            secureCookies ? true : nil, "FORMWRIGHT_SECURE_COOKIES", default: false
        ) { ["on": true, "true": true, "1": true, "off": false, "false": false, "0": false][$0.lowercased()] }
        let sessionMinutes = try environment.value(
            adminSessionMinutes, "FORMWRIGHT_ADMIN_SESSION_MINUTES", default: 480.0
        ) { Double($0).flatMap { $0 > 0 && $0 <= 7 * 24 * 60 ? $0 : nil } }
        guard sessionMinutes > 0, sessionMinutes <= 7 * 24 * 60 else {
            throw ValidationError("--admin-session-minutes must be more than 0 and at most 10080 (a week)")
        }
        configuration.adminSessionLifetime = .milliseconds(Int(sessionMinutes * 60_000))
        // Given, the body limit stands; left to its default, it grows to carry the forms' files.
        configuration.bodyLimitFitsUploads =
            maxBody == nil && (environment.variables["FORMWRIGHT_MAX_BODY"] ?? "").isEmpty
        configuration.maximumFileSize = try environment.value(
            try maxFile.map { try ByteSize.parse($0, option: "--max-file", refusingZeroAs: "every upload") },
            "FORMWRIGHT_MAX_FILE", default: 1 << 20
        ) { try ByteSize.parse($0, option: "FORMWRIGHT_MAX_FILE", refusingZeroAs: "every upload") }
        configuration.submissionsFolder =
            submissions ?? environment.variables["FORMWRIGHT_SUBMISSIONS"].flatMap { $0.isEmpty ? nil : $0 }
        // A store by default, unless submissions go to a folder of JSON lines instead.
        configuration.store =
            store ?? Self.storeNamed(by: environment.variables)
            ?? (configuration.submissionsFolder == nil ? Self.defaultStore : nil)
        configuration.smtp = smtp ?? environment.variables["FORMWRIGHT_SMTP"].flatMap { $0.isEmpty ? nil : $0 }
        configuration.mailFrom =
            mailFrom ?? environment.variables["FORMWRIGHT_MAIL_FROM"].flatMap { $0.isEmpty ? nil : $0 }
        configuration.deliveryAttempts = try environment.value(
            deliveryAttempts, "FORMWRIGHT_DELIVERY_ATTEMPTS", default: 16
        ) { Int($0).flatMap { $0 >= 1 ? $0 : nil } }
        let backoff = try environment.value(deliveryBackoff, "FORMWRIGHT_DELIVERY_BACKOFF", default: 5.0) {
            Double($0).flatMap { $0 > 0 && $0 <= 86_400 ? $0 : nil }
        }
        configuration.deliveryBackoff = .milliseconds(Int(backoff * 1000))
        let longest = try environment.value(deliveryMaxDelay, "FORMWRIGHT_DELIVERY_MAX_DELAY", default: 86_400.0) {
            Double($0).flatMap { $0 > 0 && $0 <= 7 * 86_400 ? $0 : nil }
        }
        configuration.deliveryMaxDelay = .milliseconds(Int(longest * 1000))
        // Webhooks' secrets are read from the variables their forms name (`secretEnv`).
        configuration.environment = environment.variables
        // The CSRF secret comes only from the environment: a flag would show in `ps`.
        configuration.secret = environment.variables["FORMWRIGHT_SECRET"].flatMap { $0.isEmpty ? nil : $0 }
        if let secret = configuration.secret, secret.utf8.count < EnvironmentSettings.minimumSecretBytes {
            // HMAC-SHA256 keys shorter than its 32-byte output weaken it (RFC 2104 §3); a short, typed
            // secret is also one an attacker can guess and then forge every form's CSRF token with.
            logger.warning(
                "FORMWRIGHT_SECRET is \(secret.utf8.count) bytes: CSRF tokens signed with it are weak; use at least \(EnvironmentSettings.minimumSecretBytes) random bytes, such as FORMWRIGHT_SECRET=$(openssl rand -hex 32)"
            )
        }

        let app: FormServerApp
        do {
            app = try FormServerApp(
                configuration: configuration,
                hooks: FormwrightCommandLine.hooks(formsFolder: configuration.formsFolder),
                logger: logger)
            try app.start()
        } catch {
            logger.critical("cannot start: \(error)")
            sink.flush()
            throw ExitCode(1)
        }
        let signal = signals.wait()
        logger.info("shutting down", metadata: ["signal": "\(Signals.name(signal))"])
        app.shutdown(gracePeriod: configuration.shutdownGracePeriod)
    }
}
