/// The life of the driver's connection: which state it is in, the data that exists only in that state,
/// and every transition between states. One `mutating func` per event returns what the driver must do;
/// the driver does the I/O. Consumers, readers and confirms outlive any one connection and stay with
/// the driver. Generic over the connection (``AMQPWire`` in the driver) so that tests can drive it alone.
///
/// ```
/// connecting ──opened──▶ opening ──setUp──▶ connected
///     ▲  ▲                  │                  │
///     │  └───openFailed─────┘                  │
///     └──────────────────connectionLost────────┘
/// any ──finish──▶ finished
/// ```
struct AMQPConnectionStateMachine<Connection> {
    typealias Reply = AMQPConnectionDriver.Reply<Void>

    enum State {
        /// No connection; the next round of attempts is due at `nextAttemptAt`.
        case connecting(Connecting)
        /// Logged in; channels, topology and consumers are being set up.
        case opening(Opening)
        case connected(Connected)
        case finished
    }

    struct Connecting {
        /// Rounds over all endpoints that failed since the connection was last up.
        var attempt: Int
        var nextAttemptAt: ContinuousClock.Instant
        /// The endpoint to try first.
        var endpointIndex: Int
        /// The caller of ``AMQPConnectionDriver/start(waitingForTheBroker:)`` until the first connection is up.
        var initialWaiter: Reply?
        /// Whether that caller waits through rounds that failed for a reason that may pass (the broker not
        /// up yet), rather than failing with the first round.
        var startWaitsForTheBroker = false
    }

    struct Opening {
        var connection: Connection
        var gathersPublishes: Bool
        var connecting: Connecting
        var isBlocked = false
    }

    /// Kept small and free of references: the hot path reads it for every command and frame.
    struct Connected {
        var connection: Connection
        /// Whether publishes go through the write buffer (plain TCP) or are sent frame by frame (TLS).
        var gathersPublishes: Bool
        var endpointIndex: Int
        /// The broker sent connection.blocked: publishes wait until connection.unblocked.
        var isBlocked = false
    }

    /// How a command is treated in the current state.
    enum Admission: Equatable {
        case run
        case disconnected
        case finished
    }

    private(set) var state: State

    init() {
        state = .connecting(Connecting(attempt: 0, nextAttemptAt: .now, endpointIndex: 0, initialWaiter: nil))
    }

    var admission: Admission {
        switch state {
        case .connected: .run
        case .connecting, .opening: .disconnected
        case .finished: .finished
        }
    }

    /// The connection, while there is one (being set up or up).
    var connection: Connection? {
        switch state {
        case .connected(let connected): connected.connection
        case .opening(let opening): opening.connection
        case .connecting, .finished: nil
        }
    }

    var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    var isBlocked: Bool {
        if case .connected(let connected) = state { return connected.isBlocked }
        return false
    }

    var gathersPublishes: Bool {
        switch state {
        case .connected(let connected): connected.gathersPublishes
        case .opening(let opening): opening.gathersPublishes
        case .connecting, .finished: false
        }
    }

    // MARK: - Events

    /// ``AMQPConnectionDriver/start(waitingForTheBroker:)`` waits for the first connection.
    mutating func starting(_ waiter: Reply, waitingForTheBroker: Bool) {
        guard case .connecting(var connecting) = state else { preconditionFailure("started twice") }
        connecting.initialWaiter = waiter
        connecting.startWaitsForTheBroker = waitingForTheBroker
        state = .connecting(connecting)
    }

    enum ConnectAction {
        /// Try the endpoints, starting with the one at this index.
        case connect(endpointIndex: Int)
        case wait(until: ContinuousClock.Instant)
        case none
    }

    func nextConnectAction(now: ContinuousClock.Instant) -> ConnectAction {
        guard case .connecting(let connecting) = state else { return .none }
        return now >= connecting.nextAttemptAt ? .connect(endpointIndex: connecting.endpointIndex) : .wait(until: connecting.nextAttemptAt)
    }

    /// Logged in to an endpoint.
    mutating func opened(_ connection: Connection, gathersPublishes: Bool) {
        guard case .connecting(let connecting) = state else { preconditionFailure("opened while not connecting") }
        state = .opening(Opening(connection: connection, gathersPublishes: gathersPublishes, connecting: connecting))
    }

    /// An endpoint could not be connected or set up; returns the connection to destroy, if any.
    mutating func openFailed() -> Connection? {
        switch state {
        case .opening(var opening):
            opening.connecting.endpointIndex += 1
            state = .connecting(opening.connecting)
            return opening.connection
        case .connecting(var connecting):
            connecting.endpointIndex += 1
            state = .connecting(connecting)
            return nil
        case .connected, .finished:
            preconditionFailure("open failed while not connecting")
        }
    }

    enum RoundFailedAction {
        /// Start-up failed: fail ``AMQPConnectionDriver/start(waitingForTheBroker:)`` and finish.
        case failStart(Reply)
        /// Try again after `delay`; `attempt` rounds have failed.
        case retry(attempt: Int, delay: Duration)
    }

    /// Every endpoint failed in this round; `mayPass` tells whether the last failure can (a refused
    /// connection) or never will (refused credentials, a certificate not trusted).
    mutating func roundFailed(backoff: ReconnectBackoff, mayPass: Bool) -> RoundFailedAction {
        guard case .connecting(var connecting) = state else { preconditionFailure("round failed while not connecting") }
        if let waiter = connecting.initialWaiter, !(connecting.startWaitsForTheBroker && mayPass) {
            connecting.initialWaiter = nil
            state = .connecting(connecting)
            return .failStart(waiter)
        }
        let delay = backoff.delay(forAttempt: connecting.attempt)
        connecting.attempt += 1
        connecting.nextAttemptAt = .now + delay
        state = .connecting(connecting)
        return .retry(attempt: connecting.attempt, delay: delay)
    }

    enum SetUpAction {
        case resumeStart(Reply)
        /// Reconnected after `attempts` rounds.
        case reconnected(attempts: Int)
    }

    /// Channels, topology and consumers are set up: the connection is in use.
    mutating func setUp() -> SetUpAction {
        guard case .opening(let opening) = state else { preconditionFailure("set up while not opening") }
        state = .connected(
            Connected(
                connection: opening.connection, gathersPublishes: opening.gathersPublishes,
                endpointIndex: opening.connecting.endpointIndex, isBlocked: opening.isBlocked))
        if let waiter = opening.connecting.initialWaiter { return .resumeStart(waiter) }
        return .reconnected(attempts: opening.connecting.attempt + 1)
    }

    /// The connection failed while in use; returns it to destroy. Recovery starts after the first backoff.
    mutating func connectionLost(backoff: ReconnectBackoff) -> Connection? {
        guard case .connected(let connected) = state else { return nil }
        state = .connecting(
            Connecting(
                attempt: 1, nextAttemptAt: .now + backoff.delay(forAttempt: 0),
                endpointIndex: connected.endpointIndex, initialWaiter: nil))
        return connected.connection
    }

    /// connection.blocked (`true`) or connection.unblocked (`false`) arrived.
    mutating func blocked(_ isBlocked: Bool) {
        switch state {
        case .connected(var connected):
            connected.isBlocked = isBlocked
            state = .connected(connected)
        case .opening(var opening):
            opening.isBlocked = isBlocked
            state = .opening(opening)
        case .connecting, .finished:
            break
        }
    }

    /// The application closed the connection, or the first round failed; returns the connection to
    /// destroy and the caller of start() still waiting, if any.
    mutating func finish() -> (connection: Connection?, initialWaiter: Reply?) {
        let result: (Connection?, Reply?)
        switch state {
        case .connecting(let connecting): result = (nil, connecting.initialWaiter)
        case .opening(let opening): result = (opening.connection, opening.connecting.initialWaiter)
        case .connected(let connected): result = (connected.connection, nil)
        case .finished: result = (nil, nil)
        }
        state = .finished
        return result
    }
}
