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
            (ISO 8601) and ageSeconds, null when unknown. A listing cut by --limit says how many the queue \
            holds (on standard error with --json).
            """
    )

    /// The broker holds every message listed, unacknowledged, until the listing ends, and taking back tens
    /// of thousands at once keeps it from confirming the workers' own dead-letter publishes in time.
    @Option(help: "List at most this many, from the head of the queue; the broker holds each until the listing ends.")
    var limit = 100

    @Flag(help: "One JSON object per line, for scripts.")
    var json = false

    @OptionGroup(title: "Broker") var broker: BrokerSettings

    func validate() throws {
        if limit < 1 { throw ValidationError("--limit must be at least 1") }
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
            let cut = shown < held
            var summary = held == 0 ? "\(queue.name) is empty" : "\(shown) of the \(held) dead letters in \(queue.name)"
            if cut { summary += "; a larger --limit lists more" }
            // Scripts reading JSON lines learn of a cut listing on standard error.
            let note = json ? StandardError.line : StandardOutput.line
            if !json || cut { note(summary) }
            if held > 0, let moving = try await queue.whyPositionsMove() { note("\(moving)") }
        }
    }
}
