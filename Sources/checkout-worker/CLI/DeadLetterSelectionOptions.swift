import ArgumentParser
import CheckoutMessaging

/// `ID… | --all | --reason CODE`: which dead letters `replay` and `purge` act on.
struct DeadLetterSelectionOptions: ParsableArguments {
    @Argument(help: "Positions (as `list` shows them) or message_ids; id:NUMBER for a message_id that is a number.")
    var ids: [String] = []

    @Flag(help: "Every dead letter.")
    var all = false

    @Option(help: ArgumentHelp("Those with this x-error-reason, e.g. retries-exhausted or invalid-json.", valueName: "code"))
    var reason: String?

    func validate() throws {
        let given = [!ids.isEmpty, all, reason != nil].filter { $0 }.count
        guard given == 1 else { throw ValidationError("name the dead letters with IDs, --all or --reason CODE (one of them)") }
        if let reason, reason.isEmpty { throw ValidationError("--reason needs a code") }
    }

    var selection: DeadLetterSelection {
        if all { return .all }
        if let reason { return .reason(reason) }
        return .ids(ids.map(DeadLetterID.init))
    }

    /// The IDs that named no dead letter among `matched`, for the operator.
    func unmatched(by matched: [DeadLetter]) -> [DeadLetterID] {
        guard case .ids(let ids) = selection else { return [] }
        return ids.filter { id in !matched.contains { DeadLetterSelection.ids([id]).selects($0) } }
    }
}
