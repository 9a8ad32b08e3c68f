import Metrics
import RabbitMQ
import ServiceLifecycle

/// Exports the broker connection's state and counters as metrics, sampled every two seconds: the
/// transport counts with atomics of its own and knows nothing of metrics.
struct BrokerMetricsService: Service {
    let connection: AMQPConnection
    let factory: any MetricsFactory

    private static let counted: [(label: String, value: @Sendable (AMQPConnectionStatistics) -> Int)] = [
        ("checkout_broker_publishes_total", { $0.publishes }),
        ("checkout_broker_deliveries_total", { $0.deliveries }),
        ("checkout_broker_ack_frames_total", { $0.ackFrames }),
        ("checkout_broker_publish_writes_total", { $0.publishWrites }),
        ("checkout_broker_channels_closed_total", { $0.channelsClosedByBroker }),
        ("checkout_broker_confirm_timeouts_total", { $0.confirmTimeouts }),
        ("checkout_broker_consumers_cancelled_total", { $0.consumersCancelledByBroker }),
        ("checkout_broker_stale_settlements_total", { $0.staleSettlements }),
    ]

    func run() async throws {
        let connected = Gauge(label: "checkout_broker_connected", factory: factory)
        let counters = Self.counted.map { Counter(label: $0.label, factory: factory) }
        await cancelWhenGracefulShutdown {
            var exported = Array(repeating: 0, count: counters.count)
            while !Task.isCancelled {
                connected.record(connection.isConnected ? 1 : 0)
                for (index, counted) in Self.counted.enumerated() {
                    let value = counted.value(connection.statistics)
                    if value > exported[index] {
                        counters[index].increment(by: value - exported[index])
                        exported[index] = value
                    }
                }
                try? await Task.sleep(for: .seconds(2))
            }
        }
    }
}
