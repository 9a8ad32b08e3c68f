/// A queue's messages as `rabbitmqctl list_queues` reports them.
struct QueueDepth: Sendable, CustomStringConvertible {
    let name: String
    let ready: Int
    let unacknowledged: Int

    var isEmpty: Bool { ready == 0 && unacknowledged == 0 }

    var description: String { "\(name): \(ready) ready, \(unacknowledged) unacked" }

    /// Every queue of `vhost`, asked of cluster node `node`.
    static func list(node: Int, vhost: String) async throws -> [QueueDepth] {
        let output = try await TestServers.ctl(
            node: node, "-q", "list_queues", "-p", vhost, "name", "messages_ready", "messages_unacknowledged", "--no-table-headers")
        return output.split(separator: "\n").compactMap { line in
            let fields = line.split(whereSeparator: \.isWhitespace)
            guard fields.count == 3, let ready = Int(fields[1]), let unacknowledged = Int(fields[2]) else { return nil }
            return QueueDepth(name: String(fields[0]), ready: ready, unacknowledged: unacknowledged)
        }
    }
}
