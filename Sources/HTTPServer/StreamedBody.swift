/// A body made while it is sent, a piece at a time: for an answer too large to hold at once.
/// libmicrohttpd sends it with chunked transfer encoding (HTTP/1.1) or until the connection closes
/// (HTTP/1.0).
///
/// `produce` is called on a server thread each time libmicrohttpd can send more, one call at a time.
/// It appends the next piece to the bytes it is given (a piece of some tens of kilobytes keeps the
/// calls few) and returns false after the last. A piece it throws for ends the response cut short: the
/// client sees a chunked body without its end, never a body that looks whole. Whatever `produce` holds
/// is released when libmicrohttpd drops the response, sent or not. `produce` runs on the thread that
/// serves the connection, among others: a piece that takes long to make holds them up meanwhile.
///
/// `@unchecked Sendable`: libmicrohttpd calls a response's reader from one thread at a time, and
/// nothing else touches the pending bytes.
public final class StreamedBody: @unchecked Sendable {
    private let produce: (inout [UInt8]) throws -> Bool
    private var pending: [UInt8] = []
    private var sent = 0
    private var finished = false

    /// A body that `produce` makes, a piece a call, until it returns false.
    public init(_ produce: @escaping (inout [UInt8]) throws -> Bool) {
        self.produce = produce
    }

    /// What libmicrohttpd's reader callback returns: up to `buffer.count` bytes copied into `buffer`,
    /// nil after the last byte, or a failure.
    enum Read {
        case bytes(Int)
        case end
        case failed
    }

    /// Fills `buffer` from the pending bytes, producing more when they are used up.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Read {
        while sent == pending.count {
            guard !finished else { return .end }
            pending.removeAll(keepingCapacity: true)
            sent = 0
            do {
                finished = try !produce(&pending)
            } catch {
                return .failed
            }
        }
        let count = min(buffer.count, pending.count - sent)
        pending.withUnsafeBytes { bytes in
            buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + sent, byteCount: count)
        }
        sent += count
        return .bytes(count)
    }
}
