import ArgumentParser
import CheckoutMessaging

/// `checkout-worker dead-letters show ID`: a dead letter in full.
struct DeadLettersShowSubcommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print a dead letter whole: its properties, headers and body; nothing is removed.",
        discussion:
            "The body is printed as indented JSON when it is JSON, with its bytes escaped otherwise. A message_id shared by several dead letters shows each."
    )

    @Argument(help: "A position (as `list` shows it) or a message_id; id:NUMBER for a message_id that is a number.")
    var id: String

    @OptionGroup(title: "Broker") var broker: BrokerSettings

    func run() async throws {
        let id = DeadLetterID(id)
        try await DeadLettersSubcommand.withQueue(broker) { queue in
            let letters = try await queue.find([id])
            guard !letters.isEmpty else { throw SubcommandFailure("\(queue.name) has no dead letter at \(id)") }
            StandardOutput.line(letters.map { DeadLetterDetails.text($0, queue: queue.name) }.joined(separator: "\n\n"))
        }
    }
}
