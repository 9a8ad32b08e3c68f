import Logging
import NIOCore
import SQLKit

/// A database that counts every statement it runs in ``DatabaseStatistics``, so the benchmark can
/// report round trips per command as counted, not as estimated from reading the code.
struct CountingSQLDatabase: SQLDatabase {
    let base: any SQLDatabase
    let statistics: DatabaseStatistics

    var logger: Logger { base.logger }
    var eventLoop: any EventLoop { base.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { base.version }
    var dialect: any SQLDialect { base.dialect }
    var queryLogLevel: Logger.Level? { base.queryLogLevel }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        statistics.countRoundTrip()
        return base.execute(sql: query, onRow)
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        statistics.countRoundTrip()
        try await base.execute(sql: query, onRow)
    }
}

extension SQLDatabase {
    /// This database, counting its statements in `statistics`.
    func counted(in statistics: DatabaseStatistics) -> any SQLDatabase {
        CountingSQLDatabase(base: self, statistics: statistics)
    }
}
