import Synchronization
import Testing

@testable import FormServer

/// Attempts at sign-in are counted per address before their key is looked up: past the limit, the
/// address waits out its window, however many it sends at once.
@Suite struct SignInThrottleTests {
    @Test func anAddressPastTheLimitWaitsUntilItsWindowEnds() {
        let throttle = SignInThrottle(limit: 3, window: 1_000)
        #expect(throttle.reserve("a", now: 10) == (nil, 1))
        #expect(throttle.reserve("a", now: 20) == (nil, 2))
        #expect(throttle.reserve("a", now: 30) == (nil, 3))
        #expect(throttle.reserve("a", now: 40) == (970, 3))
        #expect(throttle.reserve("a", now: 50) == (960, 3))
        #expect(throttle.reserve("b", now: 40) == (nil, 1))
        // A new window starts at the next attempt after the last ended.
        #expect(throttle.reserve("a", now: 1_010) == (nil, 1))
        throttle.succeed("a")
        #expect(throttle.reserve("a", now: 1_020) == (nil, 1))
        throttle.failed()
        #expect(throttle.total.load(ordering: .relaxed) == 1)
    }
}
