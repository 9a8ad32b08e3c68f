import Testing

@testable import RabbitMQ

@Suite struct PublisherConfirmTrackerTests {
    typealias Tracker = PublisherConfirmTracker<String>

    @Test func numbersPublishesFromOne() {
        var tracker = Tracker()
        let first = tracker.published("a", returnKey: nil)
        let second = tracker.published("b", returnKey: nil)
        #expect(first == 1)
        #expect(second == 2)
    }

    @Test func aMultipleAckConfirmsEveryEarlierPublish() {
        var tracker = Tracker()
        for name in ["a", "b", "c", "d"] { tracker.published(name, returnKey: nil) }

        let resolved = tracker.resolve(deliveryTag: 3, multiple: true, nacked: false)
        #expect(resolved.map(\.0) == ["a", "b", "c"])
        #expect(resolved.allSatisfy { if case .confirmed = $0.1 { true } else { false } })
        #expect(tracker.pendingCount == 1)
    }

    @Test func aSingleAckConfirmsOnlyItsPublishEvenOutOfOrder() {
        var tracker = Tracker()
        for name in ["a", "b", "c"] { tracker.published(name, returnKey: nil) }
        let single = tracker.resolve(deliveryTag: 2, multiple: false, nacked: false)
        let rest = tracker.resolve(deliveryTag: 3, multiple: true, nacked: false)
        #expect(single.map(\.0) == ["b"])
        #expect(rest.map(\.0) == ["a", "c"])
    }

    @Test func aNackFailsThePublishesItCovers() {
        var tracker = Tracker()
        tracker.published("a", returnKey: nil)
        let resolved = tracker.resolve(deliveryTag: 1, multiple: false, nacked: true)
        #expect(resolved.count == 1)
        #expect({ if case .nacked = resolved[0].1 { true } else { false } }())
    }

    @Test func aReturnIsMatchedToItsMandatoryPublishAndReportedWithTheAck() {
        var tracker = Tracker()
        let key = Tracker.ReturnKey(exchange: "x", routingKey: "nowhere", messageID: "m2", body: [2])
        tracker.published("routed", returnKey: .init(exchange: "x", routingKey: "somewhere", messageID: "m1", body: [1]))
        tracker.published("unroutable", returnKey: key)

        tracker.returned(key, replyCode: 312, replyText: "NO_ROUTE")
        let resolved = tracker.resolve(deliveryTag: 2, multiple: true, nacked: false)

        #expect(resolved.count == 2)
        #expect({ if case .confirmed = resolved[0].1 { true } else { false } }())
        #expect({ if case .returned(312, "NO_ROUTE") = resolved[1].1 { true } else { false } }())
    }

    @Test func removeAllHandsBackEveryWaiterAndRestartsNumbering() {
        var tracker = Tracker()
        tracker.published("a", returnKey: nil)
        tracker.published("b", returnKey: nil)
        let waiters = tracker.removeAll()
        let next = tracker.published("c", returnKey: nil)
        #expect(waiters == ["a", "b"])
        #expect(next == 1)
    }
}
