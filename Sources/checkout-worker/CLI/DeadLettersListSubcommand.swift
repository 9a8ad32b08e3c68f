import ArgumentParser
import CheckoutMessaging
import Foundation

/// `checkout-worker dead-letters list`: one line per dead letter, removing none.
struct DeadLettersListSubcommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "One line per dead letter, from the head of the queue; nothing is removed.",
        discussion: """
            Columns: position, the routing key the client used, x-error-reason, x-retry-count, message_id, \
            age (since it was dead-lettered) and the start of x-error-detail. With --json, one JSON object per \
            line with the keys position, messageId, routingKey, reason, detail, retryCount, deadLetteredAt \
            (ISO 8601) and ageSeconds, null when unknown.
            """
    )

    @Option(help: "List at most this many, from the head of the queue (default: all).")
    var limit: Int?

    @Flag(help: "One JSON object per line, for scripts.")
    var json = false

    @OptionGroup(title: "Broker") var broker: BrokerSettings

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() async throws {
        let now = Date()
        try await DeadLettersSubcommand.withQueue(broker) { queue in
            var shown = 0
            let held = try await queue.list(limit: limit) { letter in
                if json {
                    StandardOutput.line(try DeadLetterJSONLine(letter, now: now).text())
                } else {
                    if shown == 0 { StandardOutput.line(DeadLetterTable.header) }
                    StandardOutput.line(DeadLetterTable.row(letter, now: now))
                }
                shown += 1
            }
            guard !json else { return }
            StandardOutput.line(held == 0 ? "\(queue.name) is empty" : "\(shown) of the \(held) dead letters in \(queue.name)")
        }
    }
}
