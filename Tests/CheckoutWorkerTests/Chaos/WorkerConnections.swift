/// Which cluster nodes the workers of a vhost are connected to, from `rabbitmqctl list_connections`.
enum WorkerConnections {
    /// The number of worker connections on each node (1-based), asked of node `node`.
    static func byNode(asking node: Int, vhost: String) async throws -> [Int: Int] {
        let output = try await TestServers.ctl(
            node: node, "-q", "list_connections", "-p", vhost, "port", "client_properties", "--no-table-headers")
        var counts: [Int: Int] = [:]
        for line in output.split(separator: "\n") where line.contains("checkout-worker@") {
            guard let port = line.split(whereSeparator: \.isWhitespace).first.flatMap({ Int($0) }),
                let node = TestServers.clusterURLs.firstIndex(where: { $0.contains(":\(port)/") })
            else { continue }
            counts[node + 1, default: 0] += 1
        }
        return counts
    }
}
