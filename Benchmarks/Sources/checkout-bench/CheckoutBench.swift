import ArgumentParser

/// `checkout-bench`: the figures of BENCHMARKS.md, each printed as a Markdown table.
@main
struct CheckoutBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkout-bench",
        abstract: "Measures the transport and the whole worker against the plain-C loop on the same broker.",
        discussion: "Progress goes to stderr, the Markdown tables for BENCHMARKS.md to stdout.",
        subcommands: [TransportCommand.self, EndToEndCommand.self],
        defaultSubcommand: TransportCommand.self
    )
}
