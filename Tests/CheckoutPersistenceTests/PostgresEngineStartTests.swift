import CheckoutPersistence
import CheckoutTestSupport
import Logging
import Testing

/// A store's first call, its migration, is made as its PostgreSQL client starts: it waits for the
/// client, where a lease made before would draw postgres-nio's warning, which an operator would read
/// at many a start.
@Suite struct PostgresEngineStartTests {
    @Test func openingAStoreOnPostgreSQLWarnsOfNothing() async throws {
        try await ScratchDatabase.with(.postgres) { scratch in
            let recorder = LogRecorder()
            let logger = RecordingLogHandler.logger(recordingInto: recorder)
            for _ in 0..<20 {
                let store = try await CheckoutStore.open(scratch.url, poolSize: 1, logger: logger)
                await store.close()
            }

            #expect(recorder.records.filter { $0.level >= .warning }.map(\.text) == [])
        }
    }
}
