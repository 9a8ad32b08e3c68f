import Synchronization
import Testing

@testable import RabbitMQ

@Suite struct AMQPDeliveryBufferTests {
    /// Records what deliveries were settled as, in place of a connection.
    private final class SettlementSpy: AMQPDeliverySettling {
        let settled = Mutex<[(UInt64, AMQPSettlement)]>([])
        func settle(_ delivery: AMQPDelivery, as settlement: AMQPSettlement) {
            settled.withLock { $0.append((delivery.deliveryTag, settlement)) }
        }
    }

    private static func delivery(_ tag: UInt64, settler: any AMQPDeliverySettling = SettlementSpy()) -> AMQPDelivery {
        AMQPDelivery(
            exchange: "", routingKey: "q", properties: AMQPProperties(), body: [UInt8(tag)], bodySize: 1, headersTruncated: false,
            redelivered: false,
            deliveryTag: tag, consumerID: 1, channelGeneration: 1, settler: settler)
    }

    @Test func handsOutBufferedDeliveriesInOrderThenEndsAfterFinish() async {
        let buffer = AMQPDeliveryBuffer()
        let consumer = AMQPConsumer(queue: "q", buffer: buffer)
        for tag in 1...100 { #expect(buffer.yield(Self.delivery(UInt64(tag)))) }
        buffer.finish()
        #expect(!buffer.yield(Self.delivery(101)), "a finished buffer takes no more")

        var tags: [UInt64] = []
        for await delivery in consumer { tags.append(delivery.deliveryTag) }
        #expect(tags == Array(1...100))
    }

    @Test func aWaitingIteratorIsResumedByTheNextDeliveryAndByFinish() async {
        let buffer = AMQPDeliveryBuffer()
        let consumer = AMQPConsumer(queue: "q", buffer: buffer)
        let iteration = Task {
            var tags: [UInt64] = []
            for await delivery in consumer { tags.append(delivery.deliveryTag) }
            return tags
        }
        for tag in 1...3 {
            try? await Task.sleep(for: .milliseconds(20))
            #expect(buffer.yield(Self.delivery(UInt64(tag))))
        }
        try? await Task.sleep(for: .milliseconds(20))
        buffer.finish()
        #expect(await iteration.value == [1, 2, 3])
    }

    @Test func cancellingTheIteratingTaskEndsItAndReturnsWhatItNeverTook() async throws {
        let buffer = AMQPDeliveryBuffer()
        let returned = Mutex<[UInt64]?>(nil)
        buffer.onTermination { unconsumed in returned.withLock { $0 = unconsumed.map(\.deliveryTag) } }
        let consumer = AMQPConsumer(queue: "q", buffer: buffer)
        let iteration = Task {
            var iterator = consumer.makeAsyncIterator()
            let first = await iterator.next()
            while !Task.isCancelled { await Task.yield() }
            let afterCancel = await iterator.next()
            return (first?.deliveryTag, afterCancel?.deliveryTag)
        }
        for tag in 1...3 { #expect(buffer.yield(Self.delivery(UInt64(tag)))) }
        try await Task.sleep(for: .milliseconds(50))
        iteration.cancel()
        let (first, afterCancel) = await iteration.value

        #expect(first == 1)
        #expect(afterCancel == nil)
        #expect(returned.withLock { $0 } == [2, 3])
        #expect(!buffer.yield(Self.delivery(4)), "deliveries after the end are refused, for the driver to return")
    }

    @Test func aWaitingIteratorEndsWhenItsTaskIsCancelled() async {
        let buffer = AMQPDeliveryBuffer()
        let terminated = Mutex(false)
        buffer.onTermination { _ in terminated.withLock { $0 = true } }
        let consumer = AMQPConsumer(queue: "q", buffer: buffer)
        let iteration = Task {
            for await _ in consumer {}
            return true
        }
        try? await Task.sleep(for: .milliseconds(50))
        iteration.cancel()
        #expect(await iteration.value)
        #expect(terminated.withLock { $0 })
    }

    @Test func droppingTheConsumerEndsTheSubscriptionOnce() {
        let buffer = AMQPDeliveryBuffer()
        let terminations = Mutex(0)
        buffer.onTermination { _ in terminations.withLock { $0 += 1 } }
        do {
            let consumer = AMQPConsumer(queue: "q", buffer: buffer)
            let iterators = [consumer.makeAsyncIterator(), consumer.makeAsyncIterator()]
            #expect(iterators.count == 2)
            #expect(terminations.withLock { $0 } == 0, "held by the consumer and its iterators")
        }
        #expect(terminations.withLock { $0 } == 1, "the last holder went away")
        buffer.terminate()
        #expect(terminations.withLock { $0 } == 1)
    }
}
