/// A RabbitMQ virtual host of the benchmark's own, made and deleted with rabbitmqctl, so that the
/// worker's topology (`checkout.*`) touches no other user of the broker.
struct BenchVirtualHost: Sendable {
    let name: String
    private let rabbitmqctl: String

    static func create(_ name: String, for user: String, rabbitmqctl: String) async throws -> BenchVirtualHost {
        try await Subprocess.run(rabbitmqctl, ["add_vhost", name])
        let virtualHost = BenchVirtualHost(name: name, rabbitmqctl: rabbitmqctl)
        do {
            try await Subprocess.run(rabbitmqctl, ["set_permissions", "-p", name, user, ".*", ".*", ".*"])
        } catch {
            await virtualHost.delete()
            throw error
        }
        return virtualHost
    }

    /// Each queue's consumers, as the broker counts them: how the benchmark knows the workers are
    /// ready whatever their log level.
    func consumers() async throws -> [String: Int] {
        let listing = try await Subprocess.run(
            rabbitmqctl, ["list_queues", "-p", name, "--no-table-headers", "--quiet", "name", "consumers"])
        var consumers: [String: Int] = [:]
        for line in listing.split(separator: "\n") {
            let fields = line.split(separator: "\t")
            if fields.count == 2, let count = Int(fields[1]) { consumers[String(fields[0])] = count }
        }
        return consumers
    }

    /// Deletes it with every queue and exchange in it; a failure is reported, not thrown, so that the
    /// rest of the clean-up still happens.
    func delete() async {
        do {
            try await Subprocess.run(rabbitmqctl, ["delete_vhost", name])
        } catch {
            log("could not delete virtual host \(name): \(error)")
        }
    }
}
