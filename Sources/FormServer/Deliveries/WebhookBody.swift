import FormStore

/// A webhook's body (Standard Webhooks: `type`, `timestamp`, `data`), made when its job is sent, from
/// the payloads the store keeps for the version the job names: every attempt sends the same bytes under
/// the same `webhook-id`, and the outbox keeps no second copy of the payloads.
enum WebhookBody {
    /// The body of `job`, whose submission's version has `payloads`.
    static func bytes(_ job: StoredDelivery, _ payloads: DeliveryPayloads) -> [UInt8] {
        let type = job.version == 1 ? "submission.created" : "submission.updated"
        let body =
            #"{"type":"\#(type)","timestamp":"\#(job.created)","data":{"formId":"# + SubmissionJSON.string(job.formID)
            + #","submissionId":"\#(job.submission)","version":\#(job.version),"httpParameters":"#
            + payloads.httpParameters + #","formValues":"# + payloads.formValues + "}}"
        return Array(body.utf8)
    }
}
