import Testing

@testable import CheckoutPersistence

@Suite struct PostgresPlanRenewalTests {
    @Test func plansAreRenewedAsTheConnectionsAgeDoublesThenEveryLongestInterval() {
        let opened = ContinuousClock.now
        var renewal = PostgresPlanRenewal(opened: opened)
        let dueAges = (0...300).filter { renewal.isDue(at: opened.advanced(by: .seconds($0))) }

        #expect(dueAges == [1, 2, 4, 8, 16, 32, 64, 128, 192, 256])
    }

    @Test func aRenewalLateForWantOfCallsCountsFromWhenItHappened() {
        let opened = ContinuousClock.now
        var renewal = PostgresPlanRenewal(opened: opened, firstInterval: .milliseconds(100))

        let dueAges = [99, 3_000, 5_999, 6_000].filter { renewal.isDue(at: opened.advanced(by: .milliseconds($0))) }

        #expect(dueAges == [3_000, 6_000])
    }
}
