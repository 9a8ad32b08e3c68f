import Foundation
import RabbitMQ
import Testing
import Yams

/// The JSON schemas of the repository's `asyncapi.yaml`, to check that what the worker publishes is
/// what the document promises.
enum ContractSchemas {
    /// The message of each event type, as `components.messages` names it.
    private static let messages = [
        "cart.synced": "CartSynced", "cart.sync-rejected": "CartSyncRejected",
        "order.placed": "OrderPlaced", "order.rejected": "OrderRejected",
    ]

    nonisolated(unsafe) static let document: [String: Any] = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("asyncapi.yaml")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return ((try? Yams.load(yaml: text)) as? [String: Any]) ?? [:]
    }()

    /// Records an issue for every way the event's body or headers break its schema.
    static func validate(_ event: AMQPDelivery, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let type = try #require(event.properties.type, sourceLocation: sourceLocation)
        let name = try #require(messages[type], "no message in asyncapi.yaml for \(type)", sourceLocation: sourceLocation)
        let message = try #require(component("messages", name), sourceLocation: sourceLocation)
        let body = try JSONSerialization.jsonObject(with: Data(event.body))
        var violations = JSONSchemaValidator(resolve: resolve).violations(of: body, against: message["payload"] ?? [:], at: "body")
        let headers = (event.properties.headers ?? [:]).mapValues { $0.stringValue ?? "" }
        violations += JSONSchemaValidator(resolve: resolve).violations(of: headers, against: message["headers"] ?? [:], at: "headers")
        for violation in violations {
            Issue.record("\(type) breaks asyncapi.yaml: \(violation)", sourceLocation: sourceLocation)
        }
    }

    private static func component(_ kind: String, _ name: String) -> [String: Any]? {
        ((document["components"] as? [String: Any])?[kind] as? [String: Any])?[name] as? [String: Any]
    }

    private static func resolve(_ reference: String) -> Any? {
        let parts = reference.split(separator: "/").map(String.init)
        guard parts.count == 4, parts[0] == "#", parts[1] == "components" else { return nil }
        return component(parts[2], parts[3])
    }
}
