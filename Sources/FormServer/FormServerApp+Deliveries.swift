import FormEngine
import FormModel
import FormStore
import Foundation
import Logging

extension FormServerApp {
    /// The worker that sends the forms' delivery jobs, `keeper` given the jobs each form brings; nil when
    /// nothing is delivered (no form delivers, and no job waits from an earlier start). Throws, naming
    /// the form and the setting, when a form's deliveries cannot be made: better a server that does not
    /// start than submissions kept with deliveries that can never be sent.
    static func deliveryWorker(
        _ configuration: FormServerConfiguration, catalog: FormCatalog, hooks: FormHooks,
        keeper: inout (any SubmissionKeeper)?, logger: Logger
    ) throws -> DeliveryWorker? {
        var databaseKeeper = keeper as? DatabaseKeeper
        let plan: DeliveryPlan
        switch DeliveryPlan.make(
            catalog, environment: configuration.environment, smtp: configuration.smtp,
            mailFrom: configuration.mailFrom, database: databaseKeeper != nil)
        {
        case .success(let made): plan = made
        case .failure(let problems):
            throw FormServerError(
                message: "the forms' deliveries cannot be made:\n"
                    + problems.messages.map { "  " + $0 }.joined(
                        separator: "\n"))
        }
        for id in plan.forms where hooks.handlers[id] != nil {
            logger.warning(
                "this form delivers, but its Swift handler takes its submissions: nothing of it is delivered",
                metadata: ["form": "\(id)"])
        }
        guard let database = databaseKeeper?.database else { return nil }
        let counts: [String: DeliveryCount]
        do {
            counts = try database.outbox.counts()
        } catch {
            throw FormServerError(message: "cannot read the delivery jobs: \(error.description)")
        }
        guard !plan.forms.isEmpty || !counts.isEmpty else { return nil }
        for (form, count) in counts.sorted(by: { $0.key < $1.key }) {
            logger.info(
                "deliveries waiting",
                metadata: ["form": "\(form)", "pending": "\(count.pending)", "failed": "\(count.failed)"])
        }
        var settings = DeliveryWorker.Settings()
        settings.attempts = configuration.deliveryAttempts
        settings.firstDelay = configuration.deliveryBackoff
        settings.longestDelay = max(configuration.deliveryMaxDelay, configuration.deliveryBackoff)
        settings.smtp = plan.smtp
        settings.mailFrom = configuration.mailFrom
        let worker = DeliveryWorker(
            outbox: database.outbox, settings: settings, environment: configuration.environment, logger: logger)
        for id in plan.forms where hooks.handlers[id] == nil {
            if let form = catalog.forms[id] { databaseKeeper?.deliveries[id] = DeliveryJobs(form: form) }
        }
        databaseKeeper?.worker = worker
        keeper = databaseKeeper
        logger.info("deliveries sent", metadata: ["forms": "\(plan.forms.joined(separator: ", "))"])
        return worker
    }

    /// What stops `catalog`'s deliveries from being made with this `environment`, SMTP server and sender,
    /// each naming its form and setting, as `serve` says them (a database store assumed): for
    /// `formwright check`.
    public static func deliveryProblems(
        in catalog: FormCatalog, environment: [String: String], smtp: String?, mailFrom: String?
    ) -> [String] {
        let made = DeliveryPlan.make(
            catalog, environment: environment, smtp: smtp.flatMap { $0.isEmpty ? nil : $0 },
            mailFrom: mailFrom.flatMap { $0.isEmpty ? nil : $0 }, database: true)
        if case .failure(let problems) = made { return problems.messages }
        return []
    }

    /// `/readyz`'s answer once the store answered: `{"status":"ok","deliveries":{form:{"pending","failed"}}}`.
    static func readiness(_ store: (any SubmissionKeeper)?) async -> [UInt8] {
        var counts: [String: DeliveryCount] = [:]
        if let database = (store as? DatabaseKeeper)?.database {
            counts =
                (try? await Blocking.run { Result { () throws(StoreError) in try database.outbox.counts() } }.get())
                ?? [:]
        }
        let forms = counts.sorted { $0.key < $1.key }.map { form, count in
            (
                form,
                JSONValue.object([
                    ("pending", .number(String(count.pending))), ("failed", .number(String(count.failed))),
                ])
            )
        }
        return JSONValue.object([("status", .string("ok")), ("deliveries", .object(forms))]).bytes
    }
}
