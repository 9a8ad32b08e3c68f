import ArgumentParser
import CheckoutMessaging

/// `checkout-worker dead-letters replay`: sends dead letters back to the worker once the cause is fixed.
struct DeadLettersReplaySubcommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Publish dead letters back to checkout.commands as the client sent them, and remove each once the broker confirmed it.",
        discussion: """
            Each copy has the original routing key, properties and body, without the worker's x-error-*, \
            x-original-routing-key and x-dead-lettered-at headers and with its retries starting from zero. It keeps \
            its message_id, so a command that was in fact handled only has its result published again. Dead \
            letters without a message_id, or whose routing key reaches no queue, are kept. A replay interrupted \
            at any point loses nothing: run it again.
            """
    )

    @OptionGroup var selection: DeadLetterSelectionOptions

    @Flag(help: "Say what would be done; publish and remove nothing.")
    var dryRun = false

    @OptionGroup(title: "Broker") var broker: BrokerSettings

    func run() async throws {
        let would = dryRun ? "would " : ""
        var matched: [DeadLetter] = []
        var replayed = 0
        var duplicates = 0
        var kept = 0
        try await DeadLettersSubcommand.withQueue(broker) { queue in
            try await queue.replay(selection.selection, dryRun: dryRun) { outcome in
                switch outcome {
                case .replayed(let letter):
                    matched.append(letter)
                    replayed += 1
                    StandardOutput.line("\(would)replay \(Self.describe(letter))")
                case .duplicate(let letter, let original):
                    matched.append(letter)
                    duplicates += 1
                    StandardOutput.line(
                        "\(would)remove \(Self.describe(letter)): the same command as the one at position \(original), replayed just before"
                    )
                case .kept(let letter, let reason):
                    matched.append(letter)
                    kept += 1
                    StandardOutput.line("keep \(Self.describe(letter)): \(TerminalText.escaped(reason))")
                }
            }
        }
        let summary =
            dryRun
            ? "dry run: would replay \(replayed), remove \(duplicates) duplicates and keep \(kept); nothing was published or removed"
            : "replayed \(replayed), removed \(duplicates) duplicates, kept \(kept)"
        StandardOutput.line(summary)
        let unmatched = selection.unmatched(by: matched)
        if !unmatched.isEmpty {
            throw SubcommandFailure("no dead letter at \(unmatched.map(\.description).joined(separator: ", "))")
        }
    }

    /// `3 order.place message_id abc (retries-exhausted)`.
    static func describe(_ letter: DeadLetter) -> String {
        let messageID = letter.messageID.map { TerminalText.escaped($0) } ?? "(none)"
        return
            "\(letter.position) \(TerminalText.escaped(letter.routingKey)) message_id \(messageID) (\(TerminalText.escaped(letter.reason ?? "no reason")))"
    }
}
