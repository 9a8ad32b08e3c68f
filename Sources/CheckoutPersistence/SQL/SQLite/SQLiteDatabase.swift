import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit

/// SQLKit's view of one ``SQLiteHandle``: the shared SQL, serialized in SQLite's dialect, run inline
/// on the calling thread: the writer's own (``SQLiteSession/run(_:)``), or a reader's borrower's.
struct SQLiteDatabase: SQLDatabase {
    let handle: SQLiteHandle
    let logger: Logger

    /// SQLKit's future-based calls complete on it; the store makes none of them.
    var eventLoop: any EventLoop { MultiThreadedEventLoopGroup.singleton.any() }
    var version: (any SQLDatabaseReportedVersion)? { nil }
    var dialect: any SQLDialect { SQLiteDialect() }
    var queryLogLevel: Logger.Level? { nil }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        do {
            try run(query, onRow)
            return eventLoop.makeSucceededVoidFuture()
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try run(query, onRow)
    }

    private func run(_ query: any SQLExpression, _ onRow: (any SQLRow) -> Void) throws {
        var serializer = SQLSerializer(database: self)
        query.serialize(to: &serializer)
        let binds = try serializer.binds.map { try SQLiteValue(binding: $0) }
        try handle.execute(serializer.sql, binds: binds) { onRow($0) }
    }
}
