import ArgumentParser

/// How the worker consumes, stores, serves and logs: what only `run` needs.
struct WorkerSettings: SettingGroup {
    static let databasePoolSize = Setting(
        "checkout.database.poolSize", accepts: "a whole number from 1 to 100",
        help: "Database connections at most; on SQLite, readers beside the one writer", default: "10"
    )
    static let catalogFile = Setting(
        "checkout.catalog.file", accepts: "a readable JSON file of products, as `checkout-worker catalog import` takes",
        help: "Products to import (upsert) at start-up, as `catalog import` does"
    )
    static let prefetch = Setting(
        "checkout.prefetch", accepts: "a whole number from 1 to 65535", help: "Unacknowledged deliveries per consumer", default: "50")
    static let concurrency = Setting(
        "checkout.concurrency", accepts: "a whole number from 1 to 1000",
        help: "Commands handled at once; by default the prefetch of both command queues, at most 1000"
    )
    static let queueType = Setting("checkout.queue.type", accepts: "classic or quorum", help: "classic or quorum", default: "classic")
    static let retryDelays = Setting(
        "checkout.retry.delays", accepts: "durations such as 1s,5s,30s,2m,10m (ms, s, m or h; up to 24h)",
        help: "Delays before each retry", default: "1s,5s,30s,2m,10m"
    )
    static let httpPort = Setting(
        "checkout.http.port", accepts: "a port number from 0 to 65535",
        help: "Port of /health/live, /health/ready and /metrics; 0 for any free one", default: "8080"
    )
    static let logLevel = Setting(
        "checkout.log.level", accepts: "trace, debug, info, notice, warning, error or critical",
        help: "trace, debug, info, notice, warning, error or critical", default: "info"
    )
    static let logFormat = Setting("checkout.log.format", accepts: "json or text", help: "json or text", default: "json")
    static let shutdownGracePeriod = Setting(
        "checkout.shutdown.gracePeriod", accepts: "a duration such as 30s or 2m", help: "Time to finish in-flight commands after SIGTERM",
        default: "30s"
    )
    static let claimLease = Setting(
        "checkout.claim.lease", accepts: "a duration from 1s to 24h, such as 2m",
        help: "How long a command being handled is kept from other workers; what a crashed worker's commands wait", default: "2m"
    )

    @Option(help: ArgumentHelp(WorkerSettings.databasePoolSize.flagHelp))
    var databasePoolSize: String?
    @Option(help: ArgumentHelp(WorkerSettings.catalogFile.flagHelp))
    var catalogFile: String?
    @Option(help: ArgumentHelp(WorkerSettings.prefetch.flagHelp))
    var prefetch: String?
    @Option(help: ArgumentHelp(WorkerSettings.concurrency.flagHelp))
    var concurrency: String?
    @Option(help: ArgumentHelp(WorkerSettings.queueType.flagHelp))
    var queueType: String?
    @Option(help: ArgumentHelp(WorkerSettings.retryDelays.flagHelp))
    var retryDelays: String?
    @Option(help: ArgumentHelp(WorkerSettings.httpPort.flagHelp))
    var httpPort: String?
    @Option(help: ArgumentHelp(WorkerSettings.logLevel.flagHelp))
    var logLevel: String?
    @Option(help: ArgumentHelp(WorkerSettings.logFormat.flagHelp))
    var logFormat: String?
    @Option(help: ArgumentHelp(WorkerSettings.shutdownGracePeriod.flagHelp))
    var shutdownGracePeriod: String?
    @Option(help: ArgumentHelp(WorkerSettings.claimLease.flagHelp))
    var claimLease: String?

    var given: [(setting: Setting, flag: String?)] {
        [
            (Self.databasePoolSize, databasePoolSize), (Self.catalogFile, catalogFile), (Self.prefetch, prefetch),
            (Self.concurrency, concurrency), (Self.queueType, queueType), (Self.retryDelays, retryDelays), (Self.httpPort, httpPort),
            (Self.logLevel, logLevel), (Self.logFormat, logFormat), (Self.shutdownGracePeriod, shutdownGracePeriod),
            (Self.claimLease, claimLease),
        ]
    }
}
