import Testing

@testable import checkout_bench

struct WorkerTimingsTests {
    /// Both commands' timers and both events' together, as one worker serves them, and only what a
    /// round added since an earlier reading.
    @Test func readsTheTimersOfEveryCommandAndEventAndTakesTheRoundsShare() {
        let before = WorkerTimings(
            metrics: """
                # TYPE checkout_command_processing_seconds histogram
                checkout_command_processing_seconds_bucket{command="cart.sync",le="0.005"} 90
                checkout_command_processing_seconds_sum{command="cart.sync"} 0.5
                checkout_command_processing_seconds_count{command="cart.sync"} 100
                checkout_publish_confirm_seconds_sum{event="cart.synced"} 0.25
                checkout_publish_confirm_seconds_count{event="cart.synced"} 100
                """)
        let after = WorkerTimings(
            metrics: """
                checkout_command_processing_seconds_sum{command="cart.sync"} 2.5
                checkout_command_processing_seconds_count{command="cart.sync"} 400
                checkout_command_processing_seconds_sum{command="order.place"} 2.0
                checkout_command_processing_seconds_count{command="order.place"} 100
                checkout_publish_confirm_seconds_sum{event="cart.synced"} 0.75
                checkout_publish_confirm_seconds_count{event="cart.synced"} 400
                checkout_publish_confirm_seconds_sum{event="order.placed"} 0.5
                checkout_publish_confirm_seconds_count{event="order.placed"} 100
                """)

        let round = after.since(before)

        #expect(abs((round.processingMilliseconds ?? 0) - 10) < 1e-9)
        #expect(abs((round.confirmMilliseconds ?? 0) - 2.5) < 1e-9)
        #expect((before + before).commands == 200)
        #expect(WorkerTimings(metrics: "").processingMilliseconds == nil)
    }
}
