import Foundation
import Synchronization
import Testing

@testable import HTTPServer

/// Per-thread state: each thread finds its own shard, and a fold sees every thread's.
@Suite struct ShardsTests {
    /// Runs `body(i)` on `count` new threads at once and waits for all of them.
    static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread {
                body(index)
                group.leave()
            }.start()
        }
        group.wait()
    }

    @Test func aThreadKeepsItsNumberAndNoTwoLiveThreadsShareOne() {
        let numbers = Mutex<[Int]>([])
        // All alive at once (none ends before every one has its number), so none can reuse another's.
        let started = DispatchGroup()
        let release = DispatchSemaphore(value: 0)
        for _ in 0..<6 { started.enter() }
        Self.onThreads(6) { _ in
            let first = ThreadNumber.current
            #expect(ThreadNumber.current == first)
            numbers.withLock { $0.append(first) }
            started.leave()
            started.wait()
            release.signal()
        }
        for _ in 0..<6 { release.wait() }
        let all = numbers.withLock { $0 }
        #expect(all.count == 6)
        #expect(Set(all).count == 6, "\(all)")
        #expect(ThreadNumber.currentShard == ThreadNumber.current % ThreadNumber.shardCount)
    }

    @Test func eachThreadWritesItsOwnShardAndAFoldSeesThemAll() {
        let shards = Shards { _ in [Int]() }
        Self.onThreads(4) { thread in
            for _ in 0..<1000 { shards.withLock { $0.append(thread) } }
        }
        // Threads numbered apart have shards apart: no shard mixes two threads' entries unless two of
        // them were sixteen numbers apart, which the fold still counts.
        let total = shards.reduce(0) { $0 + $1.count }
        #expect(total == 4000)
        let perThread = shards.reduce([Int: Int]()) { counts, entries in
            entries.reduce(into: counts) { $0[$1, default: 0] += 1 }
        }
        #expect(perThread == [0: 1000, 1: 1000, 2: 1000, 3: 1000])
        let mixed = shards.reduce(0) { $0 + (Set($1).count > 1 ? 1 : 0) }
        #expect(mixed == 0)
    }

    @Test func theCurrentShardIsTheOneWithLockWrites() {
        let shards = Shards { index in [index] }
        shards.withLock { $0.append(-1) }
        let current = shards.withLock(shard: ThreadNumber.currentShard) { $0 }
        #expect(current.count == 2 && current.last == -1)
        #expect(current.first == ThreadNumber.currentShard)
    }

    @Test func aCounterSumsEveryThreadsChangesExactly() {
        let counter = ShardedCounter()
        Self.onThreads(4) { _ in
            for _ in 0..<10_000 { counter.add(1) }
        }
        #expect(counter.sum == 40_000)
        // Taken away on other threads than those that added it: the sum is still right.
        Self.onThreads(2) { _ in
            for _ in 0..<20_000 { counter.add(-1) }
        }
        #expect(counter.sum == 0)
    }
}
