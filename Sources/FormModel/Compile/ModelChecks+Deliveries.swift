import Foundation

extension ModelChecks {
    /// The problems of a form's `deliver` list: a webhook's address that is no `http` or `https` URL
    /// with a host, a `secretEnv` that is no environment variable's name, an e-mail address that is
    /// none, a `confirmTo` that names no `email` row outside multivalued sections. (Whether the
    /// secret is set, and an SMTP server given, is the server's to check: `formwright check` and
    /// `serve` say so, naming the form.)
    static func deliveryProblems(of form: Form) -> [(path: String, message: String)] {
        var problems: [(path: String, message: String)] = []
        for (index, delivery) in form.deliveries.enumerated() {
            let path = "deliver[\(index)]"
            switch delivery {
            case .webhook(let url, let secretEnv):
                if let problem = Delivery.webhookProblem(url) { problems.append((path + ".webhook", problem)) }
                if !Delivery.isVariableName(secretEnv) {
                    problems.append(
                        (
                            path + ".secretEnv",
                            "'\(secretEnv)' is no environment variable's name (letters, digits and '_', not starting with a digit)"
                        ))
                }
            case .email(let address):
                if !Delivery.isMailAddress(address) {
                    problems.append((path + ".email", "'\(address)' is not an e-mail address (name@example.com)"))
                }
            case .confirmTo(let tag):
                let rows = form.sections.filter { !$0.isMultivalued }.flatMap(\.rows)
                guard let row = rows.first(where: { $0.tag == tag }) else {
                    problems.append((path + ".confirmTo", "no row is tagged '\(tag)' (outside multivalued sections)"))
                    continue
                }
                if row.type.syntax != .email {
                    problems.append(
                        (
                            path + ".confirmTo",
                            "'\(tag)' is a \(row.type.name) row: a confirmation goes to an email row"
                        ))
                }
            }
        }
        return problems
    }
}
