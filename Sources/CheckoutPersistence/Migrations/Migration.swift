/// One step of the schema, applied once per database and recorded in `schema_migrations`.
///
/// The statements are plain SQL that SQLite and PostgreSQL both accept (`BIGINT`, `DOUBLE PRECISION`,
/// `BOOLEAN`, `TEXT`), so both engines have one schema. Once released, a migration never changes:
/// a change is a new migration.
struct Migration: Sendable {
    let version: Int
    let name: String
    /// Run on PostgreSQL first: locks that keep workers of the version before, still running during a
    /// rolling upgrade, from writing what the statements read and then constrain.
    var postgresLocks: [String] = []
    let statements: [String]
    /// Run on PostgreSQL only, after `statements`: functions that do a guarded write of several
    /// statements in one round trip, over the same tables. SQLite runs the same statements one by one
    /// on its writer, where a statement costs a call, not a round trip.
    var postgresStatements: [String] = []
}
