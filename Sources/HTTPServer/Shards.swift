private import CMicroHTTPD
import Synchronization

/// State kept once per thread that uses it, each copy behind its own lock on its own cache lines:
/// what every request changes (a pool of responses, random bytes, pending log lines) without the
/// worker threads waiting for one another or passing a cache line back and forth.
///
/// With one lock for all, each request would write the lock and the state from whichever core it ran
/// on, and the other core's next request would miss them in its cache: a write shared by every request
/// costs far more than the instructions it takes. A thread takes the shard of its `ThreadNumber`; more
/// threads than shards share some, which stays correct (each shard has its lock) and costs no more
/// than one lock for all would.
///
/// ```swift
/// let pools = Shards { _ in [UInt8]() }
/// pools.withLock { $0.append(1) }          // this thread's shard
/// let total = pools.reduce(0) { $0 + $1.count }   // every shard, one at a time
/// ```
public final class Shards<State: ~Copyable & Sendable>: Sendable {
    /// One copy of the state, padded so that no other shard's lock or state shares its cache lines.
    public final class Shard: Sendable {
        @usableFromInline let state: Mutex<State>
        private let padding = CacheLinePadding()

        init(_ state: consuming State) { self.state = Mutex(state) }

        /// Runs `body` on this shard's state, under its lock.
        @inlinable
        public func withLock<Result: Sendable>(_ body: (inout State) -> Result) -> Result {
            state.withLock { body(&$0) }
        }
    }

    /// The shards, retained here and released in `deinit`: reached unretained, as a lookup of a
    /// class reference in an array costs a retain and a release.
    @usableFromInline let shards: [Unmanaged<Shard>]

    /// Sixteen shards, the state of shard `i` made by `make(i)`: more threads than the server's workers
    /// use them (Dispatch's, the main thread at start-up).
    public init(_ make: (Int) -> State) {
        shards = (0..<ThreadNumber.shardCount).map { Unmanaged.passRetained(Shard(make($0))) }
    }

    deinit { for shard in shards { shard.release() } }

    /// Runs `body` on the calling thread's shard, under its lock.
    @inlinable
    public func withLock<Result: Sendable>(_ body: (inout State) -> Result) -> Result {
        withLock(shard: ThreadNumber.currentShard, body)
    }

    /// Runs `body` on shard `index` (a `ThreadNumber.currentShard` read before), under its lock: for
    /// state taken from one thread's shard and given back to it later, maybe from another thread.
    /// Named by its index, not by a reference, so that remembering it costs no retain.
    @inlinable
    public func withLock<Result: Sendable>(shard index: Int, _ body: (inout State) -> Result) -> Result {
        shards[index]._withUnsafeGuaranteedRef { $0.withLock(body) }
    }

    /// Folds every shard into one result, taking each shard's lock in turn (not all at once).
    public func reduce<Result: Sendable>(_ initial: Result, _ combine: (Result, inout State) -> Result) -> Result {
        var result = initial
        for shard in shards {
            result = shard._withUnsafeGuaranteedRef { shard in shard.withLock { combine(result, &$0) } }
        }
        return result
    }
}

/// A count that many threads change and few read, kept apart per thread (`Shards`'s reasoning):
/// the requests in flight, which every request adds one to and takes one from.
public final class ShardedCounter: Sendable {
    @usableFromInline final class Cell: Sendable {
        @usableFromInline let value = Atomic<Int>(0)
        private let padding = CacheLinePadding()
        init() {}
    }

    /// Retained here, released in `deinit`, reached unretained (as `Shards`'s).
    @usableFromInline let cells: [Unmanaged<Cell>]

    /// A counter at zero.
    public init() { cells = (0..<ThreadNumber.shardCount).map { _ in Unmanaged.passRetained(Cell()) } }

    deinit { for cell in cells { cell.release() } }

    /// Adds `delta` (negative to take away) in the calling thread's cell. A count taken away on another
    /// thread than the one that added it is still right: only the sum has a meaning. Releasing, so that
    /// a reader who sees the count drop sees what the request did before it. Wrapping: a checked `add`
    /// is a compare-and-swap loop, where this is one `lock xadd`.
    @inlinable
    public func add(_ delta: Int) {
        _ = cells[ThreadNumber.currentShard]._withUnsafeGuaranteedRef {
            $0.value.wrappingAdd(delta, ordering: .releasing)
        }
    }

    /// The sum of every cell: exact when no thread is changing it.
    public var sum: Int {
        cells.reduce(0) { sum, cell in sum + cell._withUnsafeGuaranteedRef { $0.value.load(ordering: .acquiring) } }
    }
}

/// 128 bytes after a shard's state, so that the next shard's lock and state are on other cache lines:
/// a line, and the adjacent one that Intel's spatial prefetcher pulls with it.
@usableFromInline struct CacheLinePadding: Sendable {
    private let bytes: (SIMD64<UInt8>, SIMD64<UInt8>) = (SIMD64(), SIMD64())
    @usableFromInline init() {}
}

/// Small numbers that tell threads apart: 0 for the first thread that asks, 1 for the next, and so
/// on; a thread keeps its number for its life. Read from C's thread-local storage, which Swift lacks
/// (`CMicroHTTPD_threadNumberSlot`): a plain load, where `pthread_getspecific` would be a call through
/// a lazily made key on every lock of a shard and every count of a request.
public enum ThreadNumber {
    /// The calling thread's number.
    public static var current: Int {
        let slot = CMicroHTTPD_threadNumberSlot()!
        if slot.pointee != 0 { return slot.pointee - 1 }
        let number = nextThreadNumber.add(1, ordering: .relaxed).oldValue
        slot.pointee = number + 1
        return number
    }

    /// How many shards `Shards` and `ShardedCounter` keep: a power of two, so that a thread's shard is
    /// its number's low bits, not a division.
    public static let shardCount = 16

    /// The calling thread's shard among `shardCount`.
    public static var currentShard: Int { current & (shardCount - 1) }
}

/// The number the next thread to ask gets.
private let nextThreadNumber = Atomic<Int>(0)
