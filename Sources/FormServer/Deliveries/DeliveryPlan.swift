import FormDelivery
import FormModel
import Foundation

/// What the forms' deliveries need from the server, checked before it listens: a database store, each
/// webhook's secret in the environment (`whsec_…`), an SMTP server and a sender for e-mail. A problem
/// names the form and the setting; `formwright check` reports the same ones.
struct DeliveryPlan: Sendable {
    /// The SMTP server, when one is set.
    let smtp: MailServer?
    /// The forms that deliver.
    let forms: [String]

    /// The plan of `catalog`'s deliveries, or the problems that stop it, each naming its form. `database`
    /// says whether submissions are kept in a database (the outbox lives there).
    static func make(
        _ catalog: FormCatalog, environment: [String: String], smtp: String?, mailFrom: String?, database: Bool
    ) -> Result<DeliveryPlan, DeliveryProblems> {
        var problems: [String] = []
        var server: MailServer?
        if let smtp {
            switch MailServerURL.parse(smtp) {
            case .success(let parsed): server = parsed
            case .failure(let problem): problems.append("--smtp: \(problem.message)")
            }
        }
        if let mailFrom, !Delivery.isMailAddress(mailFrom) {
            problems.append("--mail-from: '\(mailFrom)' is not an e-mail address (name@example.com)")
        }
        var forms: [String] = []
        for id in catalog.ids {
            guard let form = catalog.forms[id]?.form, !form.deliveries.isEmpty else { continue }
            forms.append(id)
            if !database {
                problems.append(
                    "form '\(id)': deliver needs a database store, where its jobs are kept with the submissions "
                        + "(--store sqlite:PATH or postgres://…)")
            }
            for (index, delivery) in form.deliveries.enumerated() {
                let setting = "form '\(id)', deliver[\(index)]"
                switch delivery {
                case .webhook(_, let name):
                    guard let text = environment[name], !text.isEmpty else {
                        problems.append("\(setting).secretEnv: the environment variable \(name) is not set")
                        continue
                    }
                    if WebhookSecret(text) == nil {
                        problems.append(
                            "\(setting).secretEnv: \(name) is not a signing secret: expected \(WebhookSecret.expected)")
                    }
                case .email, .confirmTo:
                    if smtp == nil || mailFrom == nil {
                        problems.append("\(setting): e-mail needs an SMTP server: give --smtp and --mail-from")
                    }
                }
            }
        }
        guard problems.isEmpty else { return .failure(DeliveryProblems(messages: problems)) }
        return .success(DeliveryPlan(smtp: server, forms: forms))
    }
}

/// Why the forms' deliveries cannot be made, each problem naming its form and setting.
struct DeliveryProblems: Error {
    let messages: [String]
}

/// `--smtp`'s URL, read into a `MailServer`.
enum MailServerURL {
    struct Problem: Error {
        let message: String
    }

    /// `smtp://[user:password@]host[:port][?starttls=required]` or `smtps://…`; the credentials
    /// percent-decoded.
    static func parse(_ text: String) -> Result<MailServer, Problem> {
        guard var parts = URLComponents(string: text), let scheme = parts.scheme?.lowercased(),
            scheme == "smtp" || scheme == "smtps"
        else { return .failure(Problem(message: "expected smtp://[user:password@]host:port or smtps://…")) }
        guard let host = parts.host, !host.isEmpty else { return .failure(Problem(message: "the URL names no host")) }
        var requireTLS = false
        for item in parts.queryItems ?? [] {
            guard item.name == "starttls", item.value == "required" else {
                return .failure(Problem(message: "unknown parameter '\(item.name)' (only starttls=required)"))
            }
            requireTLS = true
        }
        let username = parts.user
        let password = parts.password
        parts.user = nil
        parts.password = nil
        parts.query = nil
        guard let url = parts.string else { return .failure(Problem(message: "the URL cannot be read")) }
        return .success(MailServer(url: url, username: username, password: password, requireTLS: requireTLS))
    }
}
