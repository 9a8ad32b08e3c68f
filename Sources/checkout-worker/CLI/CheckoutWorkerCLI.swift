import ArgumentParser

/// `checkout-worker`: the shop's checkout as a RabbitMQ queue worker.
@main
struct CheckoutWorkerCLI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkout-worker",
        abstract: "Handles cart.sync and order.place commands from RabbitMQ and publishes their result events.",
        discussion: """
            Every setting is read from its CHECKOUT_* environment variable and can be given as a flag to the sub-commands that use it; each reads and checks only those.
            The message contract is described in asyncapi.yaml.
            """,
        version: CheckoutWorkerVersion.current,
        subcommands: [RunSubcommand.self, CatalogSubcommand.self, SendSubcommand.self, DeadLettersSubcommand.self],
        defaultSubcommand: RunSubcommand.self
    )
}
