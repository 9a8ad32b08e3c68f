import PostgresNIO

/// Any SQL text as postgres-nio's `PostgresPreparedStatement`, whose name, text and parameter types are
/// static properties: here they come from ``current``, which the caller sets around the call.
///
/// `PostgresConnection.execute(_:logger:)` is postgres-nio's one way to run a named statement: it
/// prepares the name on its connection at the first call and reuses it after. It reads these
/// properties in the calling task only, when the call starts and when it fails (postgres-nio
/// 1.33.2, pinned exactly in `Package.swift`). Its older `prepare(query:)`, which takes the name and
/// text as values, decodes the results as text while asking for them in binary (vapor/postgres-nio#303).
struct PostgresNamedStatement: PostgresPreparedStatement {
    typealias Row = PostgresRow

    /// The statement the current task runs.
    struct Text: Sendable {
        let name: String
        let sql: String
        let types: [PostgresDataType]
    }

    @TaskLocal static var current = Text(name: "", sql: "", types: [])

    static var name: String { current.name }
    static var sql: String { current.sql }
    static var bindingDataTypes: [PostgresDataType] { current.types }

    let bindings: PostgresBindings

    func makeBindings() -> PostgresBindings {
        bindings
    }

    func decodeRow(_ row: PostgresRow) -> PostgresRow {
        row
    }
}
