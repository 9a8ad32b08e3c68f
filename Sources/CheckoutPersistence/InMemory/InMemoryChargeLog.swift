import CheckoutDomain

/// ``ChargeLog`` in ``InMemoryDatabase``.
struct InMemoryChargeLog: ChargeLog {
    let database: InMemoryDatabase

    func record(_ charge: ChargeRecord, for commandID: CommandID) async throws {
        try await database.transaction { $0.charges[commandID] = charge }
    }

    func charge(of commandID: CommandID) async throws -> ChargeRecord? {
        try await database.transaction { $0.charges[commandID] }
    }
}
