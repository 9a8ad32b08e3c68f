import CheckoutOperations
import CheckoutPersistence
import Metrics
import RabbitMQ
import ServiceLifecycle

/// Exports the broker connection's state and the counters the transport, the store and the log keep,
/// sampled every two seconds: they count with atomics of their own and know nothing of metrics.
struct SampledMetricsService: Service {
    let connection: AMQPConnection
    let database: DatabaseStatistics
    let factory: any MetricsFactory

    private var counted: [(label: String, value: @Sendable () -> Int)] {
        let transport = connection.statistics
        return [
            ("checkout_broker_publishes_total", { transport.publishes }),
            ("checkout_broker_deliveries_total", { transport.deliveries }),
            ("checkout_broker_ack_frames_total", { transport.ackFrames }),
            ("checkout_broker_publish_writes_total", { transport.publishWrites }),
            ("checkout_broker_channels_closed_total", { transport.channelsClosedByBroker }),
            ("checkout_broker_confirm_timeouts_total", { transport.confirmTimeouts }),
            ("checkout_broker_consumers_cancelled_total", { transport.consumersCancelledByBroker }),
            ("checkout_broker_stale_settlements_total", { transport.staleSettlements }),
            ("checkout_database_round_trips_total", { [database] in database.roundTrips }),
            ("checkout_database_recompilations_total", { [database] in database.recompilations }),
            ("checkout_log_lines_dropped_total", { LogSink.droppedStandardErrorLines }),
        ]
    }

    func run() async throws {
        let connected = Gauge(label: "checkout_broker_connected", factory: factory)
        let blocked = Gauge(label: "checkout_broker_blocked", factory: factory)
        let counted = counted
        let counters = counted.map { Counter(label: $0.label, factory: factory) }
        await cancelWhenGracefulShutdown {
            var exported = Array(repeating: 0, count: counters.count)
            while !Task.isCancelled {
                connected.record(connection.isConnected ? 1 : 0)
                blocked.record(connection.isBlocked ? 1 : 0)
                for (index, counted) in counted.enumerated() {
                    let value = counted.value()
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
