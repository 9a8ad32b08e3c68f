import Testing

@testable import RabbitMQ

/// The connection's life without a broker: the machine is generic over the connection, here an Int.
@Suite struct AMQPConnectionStateMachineTests {
    private typealias SUT = AMQPConnectionStateMachine<Int>
    private let backoff = ReconnectBackoff(initialDelay: .milliseconds(100), maximumDelay: .seconds(5))

    @Test func connectsAtOnceToTheFirstEndpoint() {
        let sut = SUT()
        guard case .connect(let index) = sut.nextConnectAction(now: .now) else { Issue.record("no connect"); return }
        #expect(index == 0)
        #expect(sut.admission == .disconnected)
        #expect(sut.connection == nil)
    }

    @Test func commandsRunOnlyOnceChannelsAndTopologyAreSetUp() {
        var sut = SUT()
        sut.opened(7, gathersPublishes: true)
        #expect(sut.admission == .disconnected)
        #expect(sut.connection == 7)
        guard case .reconnected(let attempts) = sut.setUp() else { Issue.record("no reconnect"); return }
        #expect(attempts == 1)
        #expect(sut.admission == .run)
        #expect(sut.gathersPublishes)
    }

    @Test func aFailedEndpointHandsBackItsConnectionAndMovesToTheNext() {
        var sut = SUT()
        sut.opened(7, gathersPublishes: false)
        #expect(sut.openFailed() == 7)
        #expect(sut.openFailed() == nil)
        guard case .connect(let index) = sut.nextConnectAction(now: .now) else { Issue.record("no connect"); return }
        #expect(index == 2)
    }

    @Test func aFailedRoundWaitsForTheBackoffAndCountsAttempts() {
        var sut = SUT()
        _ = sut.openFailed()
        guard case .retry(let attempt, _) = sut.roundFailed(backoff: backoff, mayPass: true) else { Issue.record("no retry"); return }
        #expect(attempt == 1)
        guard case .wait = sut.nextConnectAction(now: .now) else { Issue.record("no wait"); return }
        sut.opened(1, gathersPublishes: true)
        guard case .reconnected(let attempts) = sut.setUp() else { Issue.record("no reconnect"); return }
        #expect(attempts == 2)
    }

    @Test func aLostConnectionKeepsItsEndpointAndRecoversAfterTheFirstBackoff() {
        var sut = SUT()
        _ = sut.openFailed()
        sut.opened(3, gathersPublishes: true)
        _ = sut.setUp()
        sut.blocked(true)
        #expect(sut.isBlocked)
        #expect(sut.connectionLost(backoff: backoff) == 3)
        #expect(!sut.isBlocked)
        guard case .wait = sut.nextConnectAction(now: .now) else { Issue.record("no wait"); return }
        guard case .connect(let index) = sut.nextConnectAction(now: .now + .seconds(10)) else { Issue.record("no connect"); return }
        #expect(index == 1)
    }

    @Test func aBlockNoticeDuringSetUpCarriesOverToTheConnection() {
        var sut = SUT()
        sut.opened(1, gathersPublishes: true)
        sut.blocked(true)
        _ = sut.setUp()
        #expect(sut.isBlocked)
        sut.blocked(false)
        #expect(!sut.isBlocked)
    }

    @Test func finishingHandsBackTheConnectionAndRefusesEverythingAfter() {
        var sut = SUT()
        sut.opened(5, gathersPublishes: true)
        _ = sut.setUp()
        #expect(sut.finish().connection == 5)
        #expect(sut.isFinished)
        #expect(sut.admission == .finished)
        #expect(sut.connection == nil)
        guard case .none = sut.nextConnectAction(now: .now) else { Issue.record("connects after finish"); return }
        #expect(sut.finish().connection == nil)
    }

    /// `connect()` fails with the first round; `run()` waits for the broker, but not through a failure
    /// that will not pass (refused credentials, a TLS or topology error).
    @Test(arguments: [(false, true), (true, false)])
    func aFailedRoundFailsTheStartUnlessItWaitsForAFailureThatMayPass(waitingForTheBroker: Bool, mayPass: Bool) async {
        await #expect(throws: AMQPError.self) {
            try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
                var sut = SUT()
                sut.starting(waiter, waitingForTheBroker: waitingForTheBroker)
                _ = sut.openFailed()
                switch sut.roundFailed(backoff: backoff, mayPass: mayPass) {
                case .failStart(let waiter): waiter.resume(throwing: AMQPError.closedByApplication)
                case .retry: waiter.resume()
                }
            }
        }
    }

    /// `run()`: a worker started before its broker comes up with it.
    @Test func aStartWaitingForTheBrokerRetriesRoundsThatMayPassAndResumesOnceConnected() async throws {
        try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
            var sut = SUT()
            sut.starting(waiter, waitingForTheBroker: true)
            for round in 1...3 {
                _ = sut.openFailed()
                guard case .retry(let attempt, _) = sut.roundFailed(backoff: backoff, mayPass: true) else {
                    Issue.record("round \(round) failed the start")
                    return
                }
                #expect(attempt == round)
            }
            sut.opened(1, gathersPublishes: true)
            switch sut.setUp() {
            case .resumeStart(let waiter): waiter.resume()
            case .reconnected: waiter.resume(throwing: AMQPError.closedByApplication)
            }
        }
    }

    @Test func aSuccessfulFirstRoundResumesTheStart() async throws {
        try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
            var sut = SUT()
            sut.starting(waiter, waitingForTheBroker: false)
            sut.opened(1, gathersPublishes: true)
            switch sut.setUp() {
            case .resumeStart(let waiter): waiter.resume()
            case .reconnected: waiter.resume(throwing: AMQPError.closedByApplication)
            }
        }
    }
}
