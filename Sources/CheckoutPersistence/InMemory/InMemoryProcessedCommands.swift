import CheckoutDomain
import Foundation

/// ``ProcessedCommands`` over one ``CommandLog`` of ``InMemoryDatabase``.
struct InMemoryProcessedCommands<Outcome: Codable & Sendable & Equatable>: ProcessedCommands {
    let database: InMemoryDatabase
    let log: any (WritableKeyPath<InMemoryState, CommandLog<Outcome>> & Sendable)

    func claim(_ commandID: CommandID, digest: CommandDigest?, at now: Date, leaseUntil: Date) async throws -> CommandClaim<Outcome> {
        try await database.transaction { [log] state in
            guard !state.holds(commandID, besides: log) else { return .conflicting }
            return state[keyPath: log].claim(commandID, digest: digest, at: now, leaseUntil: leaseUntil)
        }
    }

    func record(_ outcome: Outcome, for commandID: CommandID) async throws -> Outcome {
        try await database.transaction { [log] in $0[keyPath: log].record(outcome, for: commandID) }
    }

    func release(_ commandID: CommandID) async throws {
        try await database.transaction { [log] in $0[keyPath: log].release(commandID) }
    }
}
