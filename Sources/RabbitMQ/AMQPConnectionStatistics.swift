import Synchronization

/// Counters of what a connection did, for metrics and for tests that check recovery behaviour.
public final class AMQPConnectionStatistics: Sendable {
    private let reconnectCount = Atomic<Int>(0)
    private let staleSettlementCount = Atomic<Int>(0)
    private let publishCount = Atomic<Int>(0)
    private let deliveryCount = Atomic<Int>(0)
    private let ackFrameCount = Atomic<Int>(0)
    private let publishWriteCount = Atomic<Int>(0)
    private let channelCloseCount = Atomic<Int>(0)
    private let confirmTimeoutCount = Atomic<Int>(0)
    private let consumerCancelCount = Atomic<Int>(0)

    init() {}

    /// Times the connection was recovered after a loss.
    public var reconnects: Int { reconnectCount.load(ordering: .relaxed) }
    /// Settlements dropped because their delivery came on a channel that no longer exists.
    public var staleSettlements: Int { staleSettlementCount.load(ordering: .relaxed) }
    public var publishes: Int { publishCount.load(ordering: .relaxed) }
    public var deliveries: Int { deliveryCount.load(ordering: .relaxed) }
    /// basic.ack frames sent; fewer than deliveries acked when acks were coalesced.
    public var ackFrames: Int { ackFrameCount.load(ordering: .relaxed) }
    /// Socket writes that carried publishes; fewer than publishes when they were gathered (plain TCP).
    public var publishWrites: Int { publishWriteCount.load(ordering: .relaxed) }
    /// Channels the broker closed with an error (a failed declare, an unknown delivery tag, ...).
    public var channelsClosedByBroker: Int { channelCloseCount.load(ordering: .relaxed) }

    /// Publishes failed because their confirm did not arrive within ``AMQPConfiguration/confirmTimeout``.
    public var confirmTimeouts: Int { confirmTimeoutCount.load(ordering: .relaxed) }

    /// Subscriptions the broker cancelled (their queue was deleted); each is declared again and resumed.
    public var consumersCancelledByBroker: Int { consumerCancelCount.load(ordering: .relaxed) }

    func recordReconnect() { reconnectCount.add(1, ordering: .relaxed) }
    func recordStaleSettlement() { staleSettlementCount.add(1, ordering: .relaxed) }
    func recordPublish() { publishCount.add(1, ordering: .relaxed) }
    func recordDelivery() { deliveryCount.add(1, ordering: .relaxed) }
    func recordAckFrames(_ count: Int) { ackFrameCount.add(count, ordering: .relaxed) }
    func recordPublishWrite() { publishWriteCount.add(1, ordering: .relaxed) }
    func recordChannelClosedByBroker() { channelCloseCount.add(1, ordering: .relaxed) }
    func recordConfirmTimeouts(_ count: Int) { confirmTimeoutCount.add(count, ordering: .relaxed) }
    func recordConsumerCancelledByBroker() { consumerCancelCount.add(1, ordering: .relaxed) }
}
