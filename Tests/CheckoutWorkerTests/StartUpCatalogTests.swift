import CheckoutMessaging
import Configuration
import Foundation
import RabbitMQ
import Testing

@testable import checkout_worker

/// `CHECKOUT_CATALOG_FILE`: a worker in a process of its own, on `memory://`, sells the file's products.
@Suite struct StartUpCatalogTests {
    @Test func aWorkerOnMemoryPricesCartsFromTheCatalogFileItImportedAtStartUp() async throws {
        let file = try Self.write(
            #"[{"sku":"SKU-FROM-FILE","name":"From the file","unitPrice":1234,"currency":"EUR","stock":7,"active":true}]"#)
        defer { try? FileManager.default.removeItem(atPath: file) }

        try await withWorld(["CHECKOUT_CATALOG_FILE": file]) { world in
            try await world.send(.syncCart, Bodies.syncCart(items: [("SKU-FROM-FILE", 9)]), messageID: "sync-from-file")

            let event = try #require(try await world.events.wait { $0.properties.correlationID == "sync-from-file" }.first)
            #expect(event.properties.type == "cart.synced")
            let body = Bodies.json(event)
            #expect(body["subtotal"] as? Int == 7 * 1234)
            #expect((body["adjustments"] as? [[String: Any]])?.first?["reason"] as? String == "clamped-to-stock")
        }
    }

    @Test func aBadRowInTheCatalogFileStopsStartUpNamingTheSettingAndTheRow() async throws {
        let file = try Self.write(
            #"[{"sku":"SKU-OK","name":"Fine","unitPrice":100,"currency":"EUR","stock":1,"active":true},{"sku":"SKU-BAD","name":"Bad","unitPrice":-5,"currency":"EUR","stock":1,"active":true}]"#
        )
        defer { try? FileManager.default.removeItem(atPath: file) }
        let world = try await TestWorld()

        let error = await #expect(throws: SubcommandFailure.self) { _ = try await world.startWorker(["CHECKOUT_CATALOG_FILE": file]) }
        await world.close()

        let message = error?.description ?? ""
        #expect(message.contains("CHECKOUT_CATALOG_FILE"))
        #expect(message.contains(file))
        #expect(message.contains("row 1"))
    }

    @Test func aCatalogFileThatCannotBeReadIsAConfigurationError() throws {
        let reader = TestWorld.reader(["CHECKOUT_CATALOG_FILE": "/nonexistent/catalog.json"])

        let error = #expect(throws: ConfigurationError.self) { try WorkerConfiguration(reading: reader) }

        #expect(error?.description.hasPrefix("CHECKOUT_CATALOG_FILE: '/nonexistent/catalog.json' is not valid") == true)
    }

    private static func write(_ json: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString).json").path
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
