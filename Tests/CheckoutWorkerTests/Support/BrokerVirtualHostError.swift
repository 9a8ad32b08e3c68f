/// `rabbitmqctl` failed while a test made or deleted its vhost, with what it said.
struct BrokerVirtualHostError: Error, CustomStringConvertible {
    let arguments: [String]
    let status: Int32
    let output: String

    var description: String { "rabbitmqctl \(arguments.joined(separator: " ")) exited \(status): \(output)" }
}
