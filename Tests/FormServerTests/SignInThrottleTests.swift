import Synchronization
import Testing

@testable import FormServer

/// Wrong keys at sign-in are counted per address: past the limit, the address waits out its window.
@Suite struct SignInThrottleTests {
    @Test func anAddressPastTheLimitWaitsUntilItsWindowEnds() {
        let throttle = SignInThrottle(limit: 3, window: 1_000)
        #expect(throttle.wait("a", now: 0) == nil)
        #expect(throttle.fail("a", now: 10) == 1)
        #expect(throttle.fail("a", now: 20) == 2)
        #expect(throttle.wait("a", now: 30) == nil)
        #expect(throttle.fail("a", now: 30) == 3)
        #expect(throttle.wait("a", now: 40) == 970)
        #expect(throttle.wait("b", now: 40) == nil)
        #expect(throttle.wait("a", now: 1_010) == nil)
        // A new window starts at the next wrong key.
        #expect(throttle.fail("a", now: 1_020) == 1)
        #expect(throttle.total.load(ordering: .relaxed) == 4)
        throttle.succeed("a")
        #expect(throttle.fail("a", now: 1_030) == 1)
    }
}
