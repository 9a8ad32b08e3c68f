import CheckoutMessaging
import CheckoutPaymentsTesting
import Foundation
import RabbitMQ

/// The figures of a chaos run, printed as a compact table: what was sent, what came back, what the
/// database and the gateway hold, and how long each fault lasted and stalled the answers.
struct ChaosReport {
    let title: String
    let duration: Duration
    let carts: Int
    let sent: SentMessages
    let events: [String: [ObservedEvent]]
    let deadLetters: [AMQPDelivery]
    let store: StoreState
    let ledger: FakeStripeLedger
    let queues: [QueueDepth]
    let faults: [FaultRecord]
    let violations: Int

    var rows: [(String, String)] {
        let commands = sent.commands.values
        let answers = events.values.compactMap(\.first)
        let totalEvents = events.values.reduce(0) { $0 + $1.count }
        var rows: [(String, String)] = [
            ("duration", Self.seconds(duration)),
            ("carts", "\(carts)"),
            (
                "commands sent",
                "\(commands.count) (cart.sync \(commands.filter { $0.kind == .syncCart }.count), order.place \(commands.filter { $0.kind == .placeOrder }.count), invalid-request \(commands.filter(\.breaksRuleOfForm).count))"
            ),
            ("malformed sent", "\(sent.malformed.count)"),
            (
                "publishes",
                "\(sent.publishes) (duplicates \(sent.publishCounts.values.reduce(0) { $0 + $1 - 1 }), of which the named client resend \(sent.clientResends.count); retried while the broker was away \(sent.publishRetries))"
            ),
            (
                "hostile properties",
                Dictionary(grouping: commands.compactMap(\.hostile), by: { $0 }).map { "\($0.key) \($0.value.count)" }.sorted().joined(
                    separator: ", ")
            ),
            ("re-used message ids", "\(commands.filter { $0.expectedReason != nil }.count)"),
            ("events", "\(totalEvents) for \(events.count) commands (\(totalEvents - events.count) repeats)"),
        ]
        for type in ["cart.synced", "cart.sync-rejected", "order.placed", "order.rejected"] {
            let ofType = answers.filter { $0.type == type }
            let reasons = Dictionary(grouping: ofType.compactMap(\.reason), by: { $0 }).map { "\($0.key) \($0.value.count)" }.sorted()
            rows.append(("  " + type, "\(ofType.count)" + (reasons.isEmpty ? "" : " (\(reasons.joined(separator: ", ")))")))
        }
        let refunded = ledger.charges.filter(\.isRefunded).count
        rows += [
            ("orders stored", "\(store.orders.count)"),
            ("charges", "\(ledger.charges.count) (refunded \(refunded), kept \(ledger.charges.count - refunded))"),
            ("refunds", "\(ledger.refunds.count)"),
            ("dead letters", "\(deadLetters.count)"),
        ]
        for product in ChaosLoad.catalog where product.isActive {
            rows.append(
                (
                    "stock " + product.sku,
                    "\(product.stock) - \(store.orderedQuantity[product.sku] ?? 0) ordered = \(store.stock[product.sku] ?? -1)"
                ))
        }
        rows.append(
            (
                "queues at the end",
                "\(queues.count) queues, \(queues.reduce(0) { $0 + $1.ready }) ready, \(queues.reduce(0) { $0 + $1.unacknowledged }) unacked"
            ))
        for fault in faults {
            let resumed = fault.eventsResumedAfter.map { "events again \(Self.seconds($0)) after" } ?? "no event after it"
            rows.append(
                (
                    "fault " + fault.name,
                    "at \(Self.seconds(fault.start)), lasted \(Self.seconds(fault.end - fault.start)), \(resumed); \(fault.evidence)"
                ))
        }
        rows.append(("invariants broken", "\(violations)"))
        return rows
    }

    /// The table, one figure a line.
    var text: String {
        let width = rows.map(\.0.count).max() ?? 0
        let lines = rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + " | " + $0.1 }
        return (["== \(title) =="] + lines).joined(separator: "\n")
    }

    private static func seconds(_ duration: Duration) -> String {
        let components = duration.components
        return String(format: "%.1fs", Double(components.seconds) + Double(components.attoseconds) / 1e18)
    }
}
