import CheckoutDomain
import Logging
import NIOCore
import PostgresKit
import PostgresNIO
import SQLKit

/// SQLKit's view of one pooled PostgreSQL connection, on which a statement with parameters runs by
/// name: prepared at its first run on the connection, reused after. PostgreSQL then parses it once
/// and, after a few runs, keeps one generic plan, where an unnamed statement is parsed and planned on
/// every call. Its rows are ``PostgresSQLRow``s.
///
/// What runs unnamed, as PostgresKit runs every statement (`base`): statements without parameters
/// (transaction control, migrations, probes: nothing worth keeping), those with a value postgres-nio
/// does not encode itself, and those the connection's cache has no room or no name for.
struct PostgresPreparingDatabase: SQLDatabase {
    let connection: PostgresConnection
    /// PostgresKit's view of the same connection.
    let base: any SQLDatabase
    let statements: PostgresStatementCache
    /// Counts a statement's preparation, a round trip before its first run.
    let statistics: DatabaseStatistics

    var logger: Logger { base.logger }
    var eventLoop: any EventLoop { base.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { base.version }
    var dialect: any SQLDialect { base.dialect }
    var queryLogLevel: Logger.Level? { base.queryLogLevel }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        eventLoop.makeFutureWithTask { try await self.execute(sql: query, onRow) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        let (sql, binds) = serialize(query)
        guard !binds.isEmpty, let (bindings, types) = try Self.bindings(binds) else {
            return try await base.execute(sql: query, onRow)
        }
        let key = PostgresStatementCache.Key(sql: sql, types: types)
        guard case .named(let name, let isNew) = statements.use(key) else {
            return try await base.execute(sql: query, onRow)
        }
        if isNew {
            statistics.countRoundTrip()
        }
        if let queryLogLevel {
            logger.log(
                level: queryLogLevel, "Executing query",
                metadata: ["sql": .string(sql), "statement": .string(name), "binds": .array(binds.map { .string("\($0)") })])
        }
        do {
            try await PostgresNamedStatement.$current.withValue(PostgresNamedStatement.Text(name: name, sql: sql, types: types)) {
                for try await row in try await connection.execute(PostgresNamedStatement(bindings: bindings), logger: logger) {
                    onRow(PostgresSQLRow(row))
                }
            }
        } catch {
            if isNew {
                statements.giveUpName(of: key)
                throw error
            }
            guard let error = error as? PSQLError, error.serverInfo?[.sqlState] == Self.planChangedResultType else { throw error }
            statements.giveUpName(of: key)
            throw RetryableError(
                code: .databaseUnavailable, context: "the schema changed under prepared statement \(name), which runs unnamed from now on",
                underlying: error)
        }
    }

    /// `feature_not_supported`, which a named statement that ran before answers when a schema change
    /// altered the columns it returns ("cached plan must not change result type"). Run again unnamed,
    /// the statement plans afresh.
    private static let planChangedResultType = "0A000"

    /// The values bound as postgres-nio binds them, and their types; nil when one is a value that
    /// postgres-nio does not encode itself, which PostgresKit encodes through `Encodable`.
    private static func bindings(_ values: [any Encodable & Sendable]) throws -> (PostgresBindings, [PostgresDataType])? {
        var bindings = PostgresBindings(capacity: values.count)
        var types: [PostgresDataType] = []
        types.reserveCapacity(values.count)
        for value in values {
            if let value = value as? any PostgresThrowingDynamicTypeEncodable {
                try bindings.append(value)
                types.append(value.psqlType)
            } else if isNil(value) {
                bindings.appendNull()
                types.append(.null)
            } else {
                return nil
            }
        }
        return (bindings, types)
    }

    private static func isNil(_ value: Any) -> Bool {
        let mirror = Mirror(reflecting: value)
        return mirror.displayStyle == .optional && mirror.children.isEmpty
    }
}
