import PostgresNIO
import Synchronization

/// The named statements of one PostgreSQL connection, by SQL text and parameter types.
///
/// Bounded: a connection holds a plan on the server for each name, and postgres-nio keeps each name
/// for the connection's life, with no way to forget one. Past ``capacity``, new statements run unnamed.
/// Names are numbered per connection and never given twice, so a name given up on is never reused; a
/// new connection starts with an empty cache, as its session does. It also keeps when the session's
/// plans are next renewed (``PostgresPlanRenewal``).
final class PostgresStatementCache: Sendable {
    /// Room for every statement the worker sends and for reads of carts of about fifty different sizes,
    /// whose `IN (…)` lists make one text each.
    static let capacity = 128

    /// A statement's SQL text and the types of its parameters, which its preparation fixes.
    struct Key: Hashable, Sendable {
        let sql: String
        let types: [PostgresDataType]
    }

    /// How to run a statement on this connection.
    enum Use {
        /// By this name; `isNew`: its first run, which prepares it, one round trip more.
        case named(String, isNew: Bool)
        case unnamed
    }

    private enum Entry {
        case named(String)
        case unnamed
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var named = 0
        var renewal: PostgresPlanRenewal
    }

    private let state: Mutex<State>

    /// For a connection first leased now; its plans are first renewed `firstRenewal` later.
    init(firstRenewal: Duration) {
        state = Mutex(State(renewal: PostgresPlanRenewal(opened: .now, firstInterval: firstRenewal)))
    }

    /// Whether the connection's plans are due for renewal; true once for each renewal.
    func takePlanRenewal() -> Bool {
        state.withLock { $0.renewal.isDue(at: .now) }
    }

    func use(_ key: Key) -> Use {
        state.withLock { state in
            switch state.entries[key] {
            case .named(let name):
                return .named(name, isNew: false)
            case .unnamed:
                return .unnamed
            case nil:
                guard state.entries.count < Self.capacity else { return .unnamed }
                state.named += 1
                let name = "checkout_\(state.named)"
                state.entries[key] = .named(name)
                return .named(name, isNew: true)
            }
        }
    }

    /// Runs `key` unnamed from now on: its name failed, maybe in its preparation, which postgres-nio
    /// would answer with the same error for the connection's life.
    func giveUpName(of key: Key) {
        state.withLock { $0.entries[key] = .unnamed }
    }
}
