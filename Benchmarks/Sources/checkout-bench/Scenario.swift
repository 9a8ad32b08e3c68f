/// One row of the end-to-end table: a use case, a store, and how many worker processes compete.
struct Scenario: Sendable, CustomStringConvertible {
    var command: BenchCommand
    var store: StoreKind
    var processes: Int

    var description: String {
        "\(command.title), \(store.title), \(processes) process\(processes == 1 ? "" : "es")"
    }

    /// Every combination asked for that the worker supports, and why each of the others is left out.
    static func plan(commands: [BenchCommand], stores: [StoreKind], processes: [Int]) -> (scenarios: [Scenario], leftOut: [String]) {
        var scenarios: [Scenario] = []
        var leftOut: [String] = []
        for command in commands {
            for store in stores {
                for count in processes {
                    let scenario = Scenario(command: command, store: store, processes: count)
                    if let reason = scenario.unsupportedReason {
                        leftOut.append("\(scenario): \(reason)")
                    } else {
                        scenarios.append(scenario)
                    }
                }
            }
        }
        return (scenarios, leftOut)
    }

    private var unsupportedReason: String? {
        guard processes > 1 else { return nil }
        switch (store, command) {
        case (.sqlite, _):
            return "SQLite is for a single process (README, Operating and scaling)"
        case (.memory, .placeOrder):
            return "memory:// is per process, and an order must reach the process that holds its cart"
        default:
            return nil
        }
    }
}
