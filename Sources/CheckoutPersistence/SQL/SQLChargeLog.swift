import CheckoutDomain
import SQLKit

/// ``ChargeLog`` in the `charge` column of the place-order commands' `processed_commands` rows: the
/// claim a worker holds while it charges, which outlives a released attempt (see ``SQLCommandLog``).
struct SQLChargeLog: ChargeLog {
    let executor: SQLExecutor
    let log: SQLCommandLog

    /// The JSON is written before the call, not on the engine's connection (on SQLite, its one writer thread).
    func record(_ charge: ChargeRecord, for commandID: CommandID) async throws {
        let text = try StoredJSON.text(charge)
        try await executor.autocommit("recording the charge of command \(commandID)") { [log] database in
            try await log.recordCharge(text, for: commandID, on: database)
        }
    }

    func charge(of commandID: CommandID) async throws -> ChargeRecord? {
        try await executor.read("reading the charge of command \(commandID)") { [log] database in
            let row = try await database.raw(
                """
                SELECT charge FROM processed_commands WHERE kind = \(bind: log.kind) AND command_id = \(bind: commandID.rawValue)
                """
            ).first().map { StoredRow($0, of: "processed_commands") }
            guard let row, try !row.isNull("charge") else { return nil }
            return try row.json("charge", as: ChargeRecord.self)
        }
    }
}
