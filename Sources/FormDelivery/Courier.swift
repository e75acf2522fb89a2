import CCurl

/// Sends batches of messages through libcurl, many at once on one thread (its multi interface), keeping
/// connections open between batches so a receiver is not dialled again for every webhook.
/// `@unchecked Sendable`: made on one thread and handed to another, it is used by one thread at a time
/// (the delivery worker's), as a libcurl multi handle must be.
public final class Courier: @unchecked Sendable {
    /// How long one message may take, connecting included.
    public let timeout: Duration
    /// How many messages are under way at once.
    public let parallel: Int
    private let multi: UnsafeMutableRawPointer

    /// libcurl's global state, set up once before any handle (`curl_global_init` is not thread-safe).
    private static let ready: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    /// A courier giving each message `timeout`, `parallel` under way at once.
    public init(timeout: Duration = .seconds(10), parallel: Int = 64) throws(DeliveryError) {
        guard Self.ready, let multi = curl_multi_init() else { throw DeliveryError("libcurl could not start") }
        self.timeout = timeout
        self.parallel = parallel
        self.multi = multi
        _ = CCurl_multiSetLong(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, parallel)
    }

    deinit { curl_multi_cleanup(multi) }

    /// Sends every message of `batch` and says how each went, in the same order. Returns once all are
    /// done, each within `timeout`.
    public func send(_ batch: [Outbound]) -> [Outcome] {
        var outcomes = [Outcome?](repeating: nil, count: batch.count)
        var waiting = batch.indices.makeIterator()
        var running: [UnsafeMutableRawPointer: Transfer] = [:]
        /// Starts the next waiting message, if any; false when none is left.
        func startNext() -> Bool {
            guard let position = waiting.next() else { return false }
            do throws(DeliveryError) {
                let transfer = try Transfer(batch[position], position: position, timeout: timeout)
                guard curl_multi_add_handle(multi, transfer.handle) == CURLM_OK else {
                    throw DeliveryError("libcurl could not start the transfer")
                }
                running[transfer.handle] = transfer
            } catch {
                outcomes[position] = Outcome(status: nil, error: error.description, milliseconds: 0)
            }
            return true
        }
        while running.count < parallel, startNext() {}
        var stillRunning: Int32 = 0
        repeat {
            curl_multi_perform(multi, &stillRunning)
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi, &left) {
                guard CCurl_messageIsDone(message) != 0, let handle = CCurl_messageHandle(message),
                    let transfer = running.removeValue(forKey: handle)
                else { continue }
                // Out of the multi handle before the transfer (and its easy handle) can be released.
                let result = CCurl_messageResult(message)
                curl_multi_remove_handle(multi, handle)
                outcomes[transfer.position] = transfer.outcome(result)
                while running.count < parallel, startNext() {}
            }
            if !running.isEmpty { curl_multi_poll(multi, nil, 0, 100, nil) }
        } while !running.isEmpty
        return outcomes.map { $0 ?? Outcome(status: nil, error: "not sent", milliseconds: 0) }
    }
}
