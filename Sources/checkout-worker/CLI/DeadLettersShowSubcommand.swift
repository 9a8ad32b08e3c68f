import ArgumentParser
import CheckoutMessaging

/// `checkout-worker dead-letters show ID`: a dead letter in full.
struct DeadLettersShowSubcommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print a dead letter whole: its properties, headers and body; nothing is removed.",
        discussion:
            "The body is printed as indented JSON when it is JSON, with its bytes escaped otherwise. A message_id shared by several dead letters, or --reason, shows each."
    )

    @Argument(help: "A position (as `list` shows it) or a message_id; id:NUMBER for a message_id that is a number.")
    var id: String?

    @Option(help: ArgumentHelp("Every dead letter with this x-error-reason instead, e.g. missing-message-id.", valueName: "code"))
    var reason: String?

    @OptionGroup(title: "Broker") var broker: BrokerSettings

    func validate() throws {
        guard (id == nil) != (reason == nil) else {
            throw ValidationError("name the dead letters with an ID or --reason CODE (one of them)")
        }
    }

    func run() async throws {
        let (selection, named): (DeadLetterSelection, String)
        if let reason {
            (selection, named) = (.reason(reason), "with reason \(reason)")
        } else {
            let id = DeadLetterID(id ?? "")
            (selection, named) = (.ids([id]), "at \(id)")
        }
        try await DeadLettersSubcommand.withQueue(broker) { queue in
            let letters = try await queue.find(selection)
            guard !letters.isEmpty else { throw SubcommandFailure("\(queue.name) has no dead letter \(named)") }
            StandardOutput.line(letters.map { DeadLetterDetails.text($0, queue: queue.name) }.joined(separator: "\n\n"))
        }
    }
}
