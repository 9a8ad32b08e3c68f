import Testing

@testable import RabbitMQ

@Suite struct AckCoalescerTests {
    /// A coalescer holding `tags` as unsettled deliveries, of which `acked` were acked.
    private func makeSUT(received tags: [UInt64], acked: [UInt64] = []) -> AckCoalescer {
        var coalescer = AckCoalescer()
        for tag in tags { coalescer.received(tag) }
        for tag in acked { _ = coalescer.ack(tag) }
        return coalescer
    }

    @Test func coalescesALeadingRunOfAcksIntoOneMultipleAck() {
        var coalescer = makeSUT(received: [1, 2, 3, 4, 5], acked: [1, 2, 3, 4, 5])
        let acks = coalescer.drain()
        #expect(acks == [.init(deliveryTag: 5, multiple: true)])
        #expect(coalescer.unsettledCount == 0)
    }

    @Test func neverLetsAMultipleAckCoverADeliveryStillInProgress() {
        var coalescer = makeSUT(received: [1, 2, 3, 4, 5, 6], acked: [1, 2, 4, 6])
        let first = coalescer.drain()
        #expect(
            first == [
                .init(deliveryTag: 2, multiple: true),
                .init(deliveryTag: 4, multiple: false),
                .init(deliveryTag: 6, multiple: false),
            ])
        #expect(coalescer.unsettledCount == 2)

        _ = coalescer.ack(3)
        _ = coalescer.ack(5)
        let second = coalescer.drain()
        #expect(second == [.init(deliveryTag: 5, multiple: true)])
    }

    @Test func afterADrainTheLastUnsettledTagIsTheLatestDeliveryNotAcked() {
        var coalescer = makeSUT(received: [1, 2, 3, 4, 5], acked: [2, 5])
        _ = coalescer.drain()
        #expect(coalescer.lastUnsettledTag == 4)
        _ = coalescer.ack(1)
        _ = coalescer.ack(3)
        _ = coalescer.ack(4)
        _ = coalescer.drain()
        #expect(coalescer.lastUnsettledTag == nil)
    }

    @Test func aSingleAckIsNotMarkedMultiple() {
        var coalescer = makeSUT(received: [7, 8], acked: [7])
        let acks = coalescer.drain()
        #expect(acks == [.init(deliveryTag: 7, multiple: false)])
    }

    @Test func aNackedDeliveryIsNeverCoveredByALaterMultipleAck() {
        var coalescer = makeSUT(received: [1, 2, 3])
        let removed = coalescer.remove(2)
        _ = coalescer.ack(1)
        _ = coalescer.ack(3)
        let acks = coalescer.drain()
        #expect(removed)
        // Tag 2 was settled by its own nack, so one multiple ack up to 3 settles exactly 1 and 3.
        #expect(acks == [.init(deliveryTag: 3, multiple: true)])
    }

    @Test func refusesUnknownAndDoubleAcks() {
        var coalescer = makeSUT(received: [1])
        let first = coalescer.ack(1)
        let second = coalescer.ack(1)
        let unknown = coalescer.ack(42)
        let unknownRemoval = coalescer.remove(42)
        #expect(first)
        #expect(!second)
        #expect(!unknown)
        #expect(!unknownRemoval)
        let acks = coalescer.drain()
        let nothingLeft = coalescer.drain()
        #expect(acks.count == 1)
        #expect(nothingLeft.isEmpty)
    }
}
