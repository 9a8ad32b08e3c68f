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
            let claim = try await store.placeOrderCommands.claim(Fixtures.command(), digest: nil, at: now, leaseUntil: now + 60)
            #expect(claim == .claimed)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func aClaimedCommandIsInProgressUntilItsLeaseEnds(database: TestDatabase) async throws {
        try await database.withStore { store in
            let command = Fixtures.command()
            _ = try await store.placeOrderCommands.claim(command, digest: nil, at: now, leaseUntil: now + 60)

            #expect(
                try await store.placeOrderCommands.claim(command, digest: nil, at: now + 59, leaseUntil: now + 120)
                    == .inProgress(until: now + 60))
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func takesOverAClaimWhoseLeaseEnded(database: TestDatabase) async throws {
        try await database.withStore { store in
            let command = Fixtures.command()
            _ = try await store.placeOrderCommands.claim(command, digest: nil, at: now, leaseUntil: now + 60)

            #expect(try await store.placeOrderCommands.claim(command, digest: nil, at: now + 60, leaseUntil: now + 120) == .claimed)
            #expect(
                try await store.placeOrderCommands.claim(command, digest: nil, at: now + 61, leaseUntil: now + 180)
                    == .inProgress(until: now + 120))
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func aCommandWithAnOutcomeIsCompletedWithIt(database: TestDatabase) async throws {
        try await database.withStore { store in
            let command = Fixtures.command()
            _ = try await store.placeOrderCommands.claim(command, digest: nil, at: now, leaseUntil: now + 60)

            #expect(try await store.placeOrderCommands.record(Fixtures.placeRejected(), for: command) == Fixtures.placeRejected())
            #expect(
                try await store.placeOrderCommands.claim(command, digest: nil, at: now + 600, leaseUntil: now + 660)
                    == .completed(Fixtures.placeRejected()))
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func theFirstRecordedOutcomeWins(database: TestDatabase) async throws {
        try await database.withStore { store in
            let command = Fixtures.command()
            _ = try await store.placeOrderCommands.record(Fixtures.placeRejected("first"), for: command)

            #expect(
                try await store.placeOrderCommands.record(Fixtures.placeRejected("second"), for: command) == Fixtures.placeRejected("first")
            )
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func aReleasedClaimCanBeClaimedAtOnce(database: TestDatabase) async throws {
        try await database.withStore { store in
            let command = Fixtures.command()
            _ = try await store.placeOrderCommands.claim(command, digest: nil, at: now, leaseUntil: now + 60)

            try await store.placeOrderCommands.release(command)

            #expect(try await store.placeOrderCommands.claim(command, digest: nil, at: now + 1, leaseUntil: now + 61) == .claimed)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func releasingAHandledCommandKeepsItsOutcome(database: TestDatabase) async throws {
        try await database.withStore { store in
            let command = Fixtures.command()
            _ = try await store.placeOrderCommands.claim(command, digest: nil, at: now, leaseUntil: now + 60)
            _ = try await store.placeOrderCommands.record(Fixtures.placeRejected(), for: command)

            try await store.placeOrderCommands.release(command)

            #expect(
                try await store.placeOrderCommands.claim(command, digest: nil, at: now, leaseUntil: now + 60)
                    == .completed(Fixtures.placeRejected()))
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func anIdASyncHoldsConflictsForAnOrder(database: TestDatabase) async throws {
        try await database.withStore { store in
            let command = Fixtures.command()
            _ = try await store.syncCarts.record(Fixtures.syncRejected(), digest: nil, for: command)

            #expect(try await store.placeOrderCommands.claim(command, digest: nil, at: now, leaseUntil: now + 60) == .conflicting)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func anIdAnOrderHoldsRecordsNothingForASync(database: TestDatabase) async throws {
        try await database.withStore { store in
            let command = Fixtures.command()
            _ = try await store.placeOrderCommands.claim(command, digest: nil, at: now, leaseUntil: now + 60)

            #expect(try await store.syncCarts.record(Fixtures.syncRejected(), digest: nil, for: command) == .usedByAnotherCommand)
            #expect(try await store.syncCarts.record(Fixtures.synced(Fixtures.cart()), digest: nil, for: command) == .usedByAnotherCommand)
            #expect(try await store.carts.cart(Fixtures.cart().id) == nil)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func aCommandReusingAHandledIdWithAnotherDigestConflicts(database: TestDatabase) async throws {
        try await database.withStore { store in
            let command = Fixtures.command()
            _ = try await store.placeOrderCommands.claim(command, digest: CommandDigest("aaa"), at: now, leaseUntil: now + 60)
            _ = try await store.placeOrderCommands.record(Fixtures.placeRejected(), for: command)

            #expect(
                try await store.placeOrderCommands.claim(command, digest: CommandDigest("bbb"), at: now, leaseUntil: now + 60)
                    == .conflicting)
            #expect(
                try await store.placeOrderCommands.claim(command, digest: CommandDigest("aaa"), at: now, leaseUntil: now + 60)
                    == .completed(Fixtures.placeRejected()))
            #expect(
                try await store.placeOrderCommands.claim(command, digest: nil, at: now, leaseUntil: now + 60)
                    == .completed(Fixtures.placeRejected()))
        }
    }

    /// A claim released after a failed attempt is still the first command's: a command re-using its id
    /// with another body cannot take it over (it would charge under the first one's key).
    @Test(arguments: TestDatabase.allCases)
    func aCommandReusingAClaimedIdWithAnotherDigestConflictsEvenOnceTheClaimIsFree(database: TestDatabase) async throws {
        try await database.withStore { store in
            let command = Fixtures.command()
            _ = try await store.placeOrderCommands.claim(command, digest: CommandDigest("aaa"), at: now, leaseUntil: now + 60)
            #expect(
                try await store.placeOrderCommands.claim(command, digest: CommandDigest("bbb"), at: now + 1, leaseUntil: now + 61)
                    == .conflicting)

            try await store.placeOrderCommands.release(command)

            #expect(
                try await store.placeOrderCommands.claim(command, digest: CommandDigest("bbb"), at: now + 2, leaseUntil: now + 62)
                    == .conflicting)
            #expect(
                try await store.placeOrderCommands.claim(command, digest: CommandDigest("aaa"), at: now + 3, leaseUntil: now + 63)
                    == .claimed)
        }
    }

    @Test(arguments: TestDatabase.sql)
    func theClaimOfAWorkerThatIsGoneIsTakenOverAtOnceAndItsLateReleaseFreesNothing(database: TestDatabase) async throws {
        try await withTwoWorkers(on: database) { gone, other in
            let command = Fixtures.command()
            _ = try await gone.placeOrderCommands.claim(command, digest: nil, at: now, leaseUntil: now + 600)
            #expect(
                try await other.placeOrderCommands.claim(command, digest: nil, at: now + 1, leaseUntil: now + 601)
                    == .inProgress(until: now + 600))

            try await gone.retire()

            #expect(try await other.placeOrderCommands.claim(command, digest: nil, at: now + 2, leaseUntil: now + 602) == .claimed)
            try await gone.placeOrderCommands.release(command)
            #expect(
                try await gone.placeOrderCommands.claim(command, digest: nil, at: now + 3, leaseUntil: now + 603)
                    == .inProgress(until: now + 602))
        }
    }

    @Test(arguments: TestDatabase.sql)
    func theClaimOfAWorkerThatStoppedRenewingIsTakenOverOnceItsLivenessRunsOut(database: TestDatabase) async throws {
        try await withTwoWorkers(on: database) { stopped, other in
            let command = Fixtures.command()
            _ = try await stopped.placeOrderCommands.claim(command, digest: nil, at: now, leaseUntil: now + 600)

            try await Task.sleep(for: CheckoutStore.livenessWindow + .milliseconds(500))
            try await other.renewLiveness()

            #expect(try await other.placeOrderCommands.claim(command, digest: nil, at: now + 1, leaseUntil: now + 601) == .claimed)
        }
    }

    @Test func aRestartedSQLiteWorkerTakesOverTheClaimsOfTheProcessBeforeIt() async throws {
        try await TestDatabase.sqlite.withFreshURL { url in
            let crashed = try await CheckoutStore.open(url, poolSize: 2, logger: TestLogger.logger)
            try await crashed.renewLiveness(first: true)
            let command = Fixtures.command()
            _ = try await crashed.placeOrderCommands.claim(command, digest: nil, at: now, leaseUntil: now + 600)
            await crashed.close()

            let restarted = try await CheckoutStore.open(url, poolSize: 2, logger: TestLogger.logger)
            try await restarted.renewLiveness(first: true)
            let claim = try await restarted.placeOrderCommands.claim(command, digest: nil, at: now + 1, leaseUntil: now + 601)
            await restarted.close()

            #expect(claim == .claimed)
        }
    }

    @Test func aNewPostgreSQLWorkerLeavesTheClaimsOfALiveWorkerAlone() async throws {
        try await withTwoWorkers(on: .postgres) { live, new in
            let command = Fixtures.command()
            _ = try await live.placeOrderCommands.claim(command, digest: nil, at: now, leaseUntil: now + 600)

            try await new.renewLiveness(first: true)

            #expect(
                try await new.placeOrderCommands.claim(command, digest: nil, at: now + 1, leaseUntil: now + 601)
                    == .inProgress(until: now + 600))
        }
    }

    /// Two stores on one database, as two worker processes have, each alive.
    private func withTwoWorkers(on database: TestDatabase, _ body: (CheckoutStore, CheckoutStore) async throws -> Void) async throws {
        try await database.withFreshURL { url in
            let first = try await CheckoutStore.open(url, poolSize: 2, logger: TestLogger.logger)
            let second = try await CheckoutStore.open(url, poolSize: 2, logger: TestLogger.logger)
            do {
                try await first.renewLiveness()
                try await second.renewLiveness()
                try await body(first, second)
            } catch {
                await first.close()
                await second.close()
                throw error
            }
            await first.close()
            await second.close()
        }
    }
}
