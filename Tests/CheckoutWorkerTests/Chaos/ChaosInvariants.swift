import CheckoutMessaging
import CheckoutPaymentsTesting
import RabbitMQ

/// What must hold after a chaos run, checked from what the run left behind: the database, the
/// gateway's ledger, the events and dead letters the client received, and the broker's queues.
///
/// Every valid command has exactly one effect (one stored outcome, none for a rule-of-form rejection)
/// and at least one result event, all of them one event; no order is stored twice; no payment is
/// charged twice, and every charge has an order or a refund; stock is never negative and is the
/// starting stock minus what the orders took; nothing is left in a queue, unacked or waiting to be
/// retried; dead letters are the malformed messages and nothing else.
struct ChaosInvariants {
    let sent: [String: ChaosCommand]
    /// How often each command (by id) was published: every publish must be answered.
    let publishCounts: [String: Int]
    let malformed: [String: MalformedMessage]
    let events: [String: [ObservedEvent]]
    let deadLetters: [AMQPDelivery]
    let store: StoreState
    let ledger: FakeStripeLedger
    let queues: [QueueDepth]

    /// Every broken invariant, one line each.
    func violations() -> [String] {
        commandViolations() + ledgerViolations() + orderViolations() + stockViolations() + cartViolations()
            + deadLetterViolations() + queues.filter { !$0.isEmpty }.map { "a queue is not empty at the end: \($0)" }
    }

    private func commandViolations() -> [String] {
        var found: [String] = []
        let charges = Dictionary(grouping: ledger.charges) { $0.commandID ?? "" }
        for command in sent.values.sorted(by: { $0.id < $1.id }) {
            guard let answers = events[command.id], let answer = answers.first else {
                found.append(unanswered(command, charges: charges[command.messageID] ?? []))
                continue
            }
            if Set(answers.map(\.messageID)).count != 1 || Set(answers.map(\.type)).count != 1 {
                found.append("\(command.id) was answered with different events: \(answers.map { "\($0.type) \($0.messageID)" })")
            }
            let published = publishCounts[command.id] ?? 1
            if answers.count < published {
                found.append(
                    "\(command.id) was published \(published) times and answered \(answers.count) times: a publish was lost (client duplicates must be replayed)"
                )
            }
            if let expected = command.expectedReason {
                if answer.reason != expected {
                    found.append(
                        "\(command.id) re-used the message id \(command.messageID) with another body and was answered \(answer.type) \(answer.reason ?? ""), not \(expected)"
                    )
                }
                continue
            }
            if let reason = answer.reason, reason.hasSuffix("unavailable") {
                found.append("\(command.id) was given up after its retries: \(answer.type) \(reason)")
            }
            let stored = store.outcomes[command.id]
            if command.breaksRuleOfForm, answer.reason != "invalid-request" {
                found.append("\(command.id) breaks a rule of form but was answered \(answer.type) \(answer.reason ?? "")")
            }
            switch stored {
            case nil: found.append("\(command.id) was answered \(answer.type) but has no stored outcome")
            case .some(nil): found.append("\(command.id) is claimed and was never finished")
            case .some(let outcome?) where outcome != Self.outcomeCase(of: answer.type):
                found.append("\(command.id) was answered \(answer.type) but its stored outcome is \(outcome)")
            default: break
            }
            guard command.kind == .placeOrder else { continue }
            let commandCharges = charges[command.id] ?? []
            if commandCharges.count > 1 {
                found.append("\(command.id) was charged \(commandCharges.count) times: \(commandCharges.map(\.paymentIntentID))")
            }
            if answer.type == "order.placed" {
                let orderID = answer.json["orderId"] as? String ?? ""
                guard let order = store.orders[orderID] else {
                    found.append("\(command.id) was answered order.placed but order \(orderID) is not stored")
                    continue
                }
                if order.cart != command.cart {
                    found.append("order \(orderID) of \(command.id) is from \(order.cart), not \(command.cart)")
                }
                if !commandCharges.contains(where: { $0.paymentIntentID == order.paymentID && $0.amount == order.total && !$0.isRefunded })
                {
                    found.append(
                        "order \(orderID) of \(command.id) has no matching kept charge (payment \(order.paymentID), \(order.total))")
                }
            } else if let kept = commandCharges.first(where: { !$0.isRefunded }) {
                found.append(
                    "\(command.id) was answered \(answer.type) \(answer.reason ?? "") but its charge \(kept.paymentIntentID) was not refunded"
                )
            }
        }
        return found
    }

    /// What every source says about a command that was never answered: the stored outcome, the
    /// gateway's charges, the dead letters with its id, and the queues that still hold messages.
    private func unanswered(_ command: ChaosCommand, charges: [FakeStripeCharge]) -> String {
        let stored: String =
            switch store.outcomes[command.messageID] {
            case nil: "no stored outcome"
            case .some(nil): "claimed, no outcome"
            case .some(let outcome?): "stored outcome \(outcome)"
            }
        let charged =
            charges.isEmpty
            ? "no charge" : "charges \(charges.map { "\($0.paymentIntentID) \($0.amount)\($0.isRefunded ? " refunded" : "")" })"
        let dead = deadLetters.filter { $0.properties.messageID == command.messageID }
            .map { $0.properties.headers?["x-error-reason"]?.stringValue ?? "?" }
        let letters = dead.isEmpty ? "not dead-lettered" : "dead-lettered \(dead)"
        let waiting = queues.filter { !$0.isEmpty }
        let queued = waiting.isEmpty ? "every queue empty" : "queues not empty: \(waiting)"
        return
            "\(command.id) (\(command.kind.routingKey), message id \(command.messageID), published \(publishCounts[command.id] ?? 1)x) was never answered: database: \(stored); ledger: \(charged); \(letters); \(queued)"
    }

    /// Every charge is for a command that was sent, and is either refunded (in full, once) or paid an order.
    private func ledgerViolations() -> [String] {
        var found: [String] = []
        let paidOrders = Set(store.orders.values.map(\.paymentID))
        let refunds = Dictionary(grouping: ledger.refunds, by: \.paymentIntentID)
        for charge in ledger.charges {
            guard let commandID = charge.commandID, sent[commandID] != nil else {
                found.append("charge \(charge.paymentIntentID) is for no command the run sent (\(charge.commandID ?? "none"))")
                continue
            }
            let chargeRefunds = refunds[charge.paymentIntentID] ?? []
            switch (chargeRefunds.count, paidOrders.contains(charge.paymentIntentID)) {
            case (0, false): found.append("charge \(charge.paymentIntentID) of \(commandID) has neither an order nor a refund")
            case (0, true): break
            case (1, false) where chargeRefunds[0].amount == charge.amount: break
            case (_, true): found.append("charge \(charge.paymentIntentID) of \(commandID) paid an order and was refunded")
            default:
                found.append(
                    "charge \(charge.paymentIntentID) of \(commandID) was refunded \(chargeRefunds.map(\.amount)) for \(charge.amount)")
            }
        }
        return found
    }

    /// One order per cart, each with its lines, and each answered by an `order.placed` event.
    private func orderViolations() -> [String] {
        var found: [String] = []
        let announced = Set(
            events.values.compactMap(\.first).filter { $0.type == "order.placed" }.compactMap { $0.json["orderId"] as? String })
        for (cart, orders) in Dictionary(grouping: store.orders.values, by: \.cart) where orders.count > 1 {
            found.append("\(orders.count) orders are stored from \(cart)")
        }
        for id in store.orders.keys.sorted() {
            if !store.ordersWithLines.contains(id) { found.append("order \(id) is stored without lines") }
            if !announced.contains(id) { found.append("order \(id) is stored but no order.placed event announced it") }
        }
        return found
    }

    private func stockViolations() -> [String] {
        ChaosLoad.catalog.compactMap { product in
            let left = store.stock[product.sku] ?? -1
            let ordered = store.orderedQuantity[product.sku] ?? 0
            guard left < 0 || left != product.stock - ordered else { return nil }
            return "stock of \(product.sku) is \(left): it started at \(product.stock) and orders took \(ordered)"
        }
    }

    /// Each cart's version counts its successful syncs, once each; it is checked out if and only if it has an order.
    private func cartViolations() -> [String] {
        var found: [String] = []
        var syncs: [String: Int] = [:]
        for command in sent.values where command.kind == .syncCart && store.outcomes[command.id] == "synced" {
            syncs[command.cart, default: 0] += 1
        }
        let ordered = Set(store.orders.values.map(\.cart))
        for cart in Set(syncs.keys).union(store.carts.keys).sorted() {
            let stored = store.carts[cart]
            if stored?.version != syncs[cart] {
                found.append("\(cart) is at version \(stored.map { "\($0.version)" } ?? "none") after \(syncs[cart] ?? 0) successful syncs")
            }
            if stored?.checkedOut != ordered.contains(cart) {
                found.append(
                    "\(cart) is \(stored?.checkedOut == true ? "" : "not ")checked out, and has \(ordered.contains(cart) ? "an" : "no") order"
                )
            }
        }
        for id in store.outcomes.keys where sent[id] == nil {
            found.append("an outcome is stored for \(id), which the run never sent")
        }
        return found
    }

    /// Dead letters are the malformed messages, each at least once, and nothing else.
    private func deadLetterViolations() -> [String] {
        var found: [String] = []
        var tags: Set<String> = []
        for letter in deadLetters {
            guard let tag = letter.properties.headers?[MalformedMessage.tagHeader]?.stringValue else {
                let reason = letter.properties.headers?["x-error-reason"]?.stringValue ?? "?"
                found.append("a command was dead-lettered: \(letter.properties.messageID ?? "no id") (\(reason))")
                continue
            }
            tags.insert(tag)
        }
        for tag in Set(malformed.keys).subtracting(tags).sorted() {
            found.append("malformed message \(tag) (\(malformed[tag].map { "\($0.variant)" } ?? "")) was not dead-lettered")
        }
        return found
    }

    private static func outcomeCase(of eventType: String) -> String {
        switch eventType {
        case "cart.synced": "synced"
        case "order.placed": "placed"
        default: "rejected"
        }
    }
}
