import PostgresNIO
import Synchronization

/// The statement caches of one pool's connections, each dropped when its connection closes.
final class PostgresStatementCaches: Sendable {
    /// How long after its first lease a connection first renews its plans (``PostgresPlanRenewal``).
    let firstPlanRenewal: Duration
    private let caches = Mutex<[PostgresConnection.ID: PostgresStatementCache]>([:])

    init(firstPlanRenewal: Duration) {
        self.firstPlanRenewal = firstPlanRenewal
    }

    /// The cache of `connection`, new at its first lease. The pool numbers its connections and never
    /// reuses a number, so a connection opened again gets an empty cache.
    func cache(for connection: PostgresConnection) -> PostgresStatementCache {
        let id = connection.id
        let (cache, isNew) = caches.withLock { caches in
            if let cache = caches[id] { return (cache, false) }
            let cache = PostgresStatementCache(firstRenewal: firstPlanRenewal)
            caches[id] = cache
            return (cache, true)
        }
        if isNew {
            connection.closeFuture.whenComplete { _ in
                self.caches.withLock { $0[id] = nil }
            }
        }
        return cache
    }
}
