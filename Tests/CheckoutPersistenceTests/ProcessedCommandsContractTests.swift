import CheckoutDomain
import CheckoutPersistence
import Foundation
import Testing

/// The rules of ``ProcessedCommands`` that every engine keeps.
@Suite struct ProcessedCommandsContractTests {
    private let now = Fixtures.now

    @Test(arguments: TestDatabase.allCases)
    func claimsACommandNobodyHandled(database: TestDatabase) async throws {
        try await database.withStore { store in
            let claim = try await store.syncCartCommands.claim(Fixtures.command(), at: now, leaseUntil: now + 60)
            #expect(claim == .claimed)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func aClaimedCommandIsInProgressUntilItsLeaseEnds(database: TestDatabase) async throws {
        try await database.withStore { store in
            let command = Fixtures.command()
            _ = try await store.syncCartCommands.claim(command, at: now, leaseUntil: now + 60)

            #expect(try await store.syncCartCommands.claim(command, at: now + 59, leaseUntil: now + 120) == .inProgress(until: now + 60))
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func takesOverAClaimWhoseLeaseEnded(database: TestDatabase) async throws {
        try await database.withStore { store in
            let command = Fixtures.command()
            _ = try await store.syncCartCommands.claim(command, at: now, leaseUntil: now + 60)

            #expect(try await store.syncCartCommands.claim(command, at: now + 60, leaseUntil: now + 120) == .claimed)
            #expect(try await store.syncCartCommands.claim(command, at: now + 61, leaseUntil: now + 180) == .inProgress(until: now + 120))
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func aCommandWithAnOutcomeIsCompletedWithIt(database: TestDatabase) async throws {
        try await database.withStore { store in
            let command = Fixtures.command()
            _ = try await store.placeOrderCommands.claim(command, at: now, leaseUntil: now + 60)

            #expect(try await store.placeOrderCommands.record(Fixtures.placeRejected(), for: command) == Fixtures.placeRejected())
            #expect(try await store.placeOrderCommands.claim(command, at: now + 600, leaseUntil: now + 660) == .completed(Fixtures.placeRejected()))
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func theFirstRecordedOutcomeWins(database: TestDatabase) async throws {
        try await database.withStore { store in
            let command = Fixtures.command()
            _ = try await store.syncCartCommands.record(Fixtures.syncRejected("first"), for: command)

            #expect(try await store.syncCartCommands.record(Fixtures.syncRejected("second"), for: command) == Fixtures.syncRejected("first"))
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func aReleasedClaimCanBeClaimedAtOnce(database: TestDatabase) async throws {
        try await database.withStore { store in
            let command = Fixtures.command()
            _ = try await store.syncCartCommands.claim(command, at: now, leaseUntil: now + 60)

            try await store.syncCartCommands.release(command)

            #expect(try await store.syncCartCommands.claim(command, at: now + 1, leaseUntil: now + 61) == .claimed)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func releasingAHandledCommandKeepsItsOutcome(database: TestDatabase) async throws {
        try await database.withStore { store in
            let command = Fixtures.command()
            _ = try await store.syncCartCommands.claim(command, at: now, leaseUntil: now + 60)
            _ = try await store.syncCartCommands.record(Fixtures.syncRejected(), for: command)

            try await store.syncCartCommands.release(command)

            #expect(try await store.syncCartCommands.claim(command, at: now, leaseUntil: now + 60) == .completed(Fixtures.syncRejected()))
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func theSameIdOfAnotherKindOfCommandIsAnotherCommand(database: TestDatabase) async throws {
        try await database.withStore { store in
            let command = Fixtures.command()
            _ = try await store.syncCartCommands.record(Fixtures.syncRejected(), for: command)

            #expect(try await store.placeOrderCommands.claim(command, at: now, leaseUntil: now + 60) == .claimed)
        }
    }
}
