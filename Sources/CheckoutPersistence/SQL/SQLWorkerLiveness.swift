import SQLKit

/// The rows of `workers`: until when each worker process is known to be alive, on the database's clock.
///
/// A claim names the worker that took it (`processed_commands.owner`); another worker takes it over as
/// soon as that worker's row is gone or out of date, instead of waiting for the claim's lease to end.
struct SQLWorkerLiveness: Sendable {
    /// This process's id, written as the owner of its claims.
    let worker: String
    /// Which of its claims this process's attempts hold now.
    let heldClaims = SQLHeldClaims()

    /// Says that this worker is alive for `window` more seconds.
    func beat(window: Double, on database: any SQLDatabase) async throws {
        try await database.raw(
            """
            INSERT INTO workers (id, alive_until) VALUES (\(bind: worker), \(unsafeRaw: database.secondsSince1970) + \(bind: window))
            ON CONFLICT (id) DO UPDATE SET alive_until = excluded.alive_until
            """
        ).run()
    }

    /// Forgets every other worker, whose claims can then be taken over at once: for SQLite, where one
    /// process works on a file, so any other worker is an earlier incarnation that died.
    func forgetOthers(on database: any SQLDatabase) async throws {
        try await database.raw("DELETE FROM workers WHERE id <> \(bind: worker)").run()
    }

    /// Forgets this worker, at the end of a clean shutdown, and the rows of workers dead for an hour.
    func retire(on database: any SQLDatabase) async throws {
        try await database.raw(
            """
            DELETE FROM workers WHERE id = \(bind: worker) OR alive_until < \(unsafeRaw: database.secondsSince1970) - 3600
            """
        ).run()
    }
}
