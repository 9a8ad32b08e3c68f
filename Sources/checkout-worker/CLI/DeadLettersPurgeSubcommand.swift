import ArgumentParser
import CheckoutMessaging

/// `checkout-worker dead-letters purge`: removes dead letters for good.
struct DeadLettersPurgeSubcommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge",
        abstract: "Remove dead letters for good, and say how many.",
        discussion:
            "--all empties the queue at once (also of what was dead-lettered since you listed it); IDs and --reason remove what matches and name each."
    )

    @OptionGroup var selection: DeadLetterSelectionOptions

    @Flag(help: "Confirm the removal; nothing is removed without it.")
    var yes = false

    @OptionGroup(title: "Broker") var broker: BrokerSettings

    func validate() throws {
        guard yes else { throw ValidationError("purge removes dead letters for good: add --yes (see them first with `dead-letters list`)") }
    }

    func run() async throws {
        var matched: [DeadLetter] = []
        try await DeadLettersSubcommand.withQueue(broker) { queue in
            let count = try await queue.purge(selection.selection) { letter in
                matched.append(letter)
                StandardOutput.line("purge \(DeadLettersReplaySubcommand.describe(letter))")
            }
            StandardOutput.line("purged \(count) dead letter\(count == 1 ? "" : "s") from \(queue.name)")
        }
        let unmatched = selection.unmatched(by: matched)
        if !unmatched.isEmpty {
            throw SubcommandFailure("no dead letter at \(unmatched.map(\.description).joined(separator: ", "))")
        }
    }
}
