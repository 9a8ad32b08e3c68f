/// One step of the schema, applied once per database and recorded in `schema_migrations`.
///
/// The statements are plain SQL that SQLite and PostgreSQL both accept (`BIGINT`, `DOUBLE PRECISION`,
/// `BOOLEAN`, `TEXT`), so both engines have one schema. Once released, a migration never changes:
/// a change is a new migration.
struct Migration: Sendable {
    let version: Int
    let name: String
    let statements: [String]
}
