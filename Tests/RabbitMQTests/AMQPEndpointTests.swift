import RabbitMQ
import Testing

@Suite struct AMQPEndpointTests {
    @Test func parsesEveryPartOfTheURL() throws {
        let endpoint = try AMQPEndpoint(url: "amqp://checkout:s%40cret@broker.internal:5673/shop%2Fprod?heartbeat=15&connection_name=w1")
        #expect(endpoint.host == "broker.internal")
        #expect(endpoint.port == 5673)
        #expect(endpoint.user == "checkout")
        #expect(endpoint.password == "s@cret")
        #expect(endpoint.virtualHost == "shop/prod")
        #expect(endpoint.usesTLS == false)
        #expect(endpoint.heartbeatSeconds == 15)
        #expect(endpoint.connectionName == "w1")
    }

    @Test func defaultsFollowRabbitMQsURISpec() throws {
        let plain = try AMQPEndpoint(url: "amqp://localhost")
        #expect(plain.port == 5672)
        #expect(plain.user == "guest")
        #expect(plain.password == "guest")
        #expect(plain.virtualHost == "/")

        let tls = try AMQPEndpoint(url: "amqps://localhost/%2F")
        #expect(tls.port == 5671)
        #expect(tls.usesTLS)
        #expect(tls.virtualHost == "/")
    }

    @Test func parsesIPv6Hosts() throws {
        let endpoint = try AMQPEndpoint(url: "amqp://[::1]:5673/%2F")
        #expect(endpoint.host == "::1")
        #expect(endpoint.port == 5673)
    }

    @Test func splitsACommaSeparatedListOfClusterNodes() throws {
        let endpoints = try AMQPEndpoint.list("amqp://a:5672/%2F, amqp://b:5673/%2F,amqps://c/%2F")
        #expect(endpoints.map(\.host) == ["a", "b", "c"])
        #expect(endpoints.map(\.port) == [5672, 5673, 5671])
    }

    @Test(arguments: [
        ("http://localhost", "scheme"),
        ("amqp://localhost:99999/%2F", "port"),
        ("amqp://localhost:abc/%2F", "port"),
        ("amqp://localhost/a/b", "one path segment"),
        ("amqp://localhost/%zz", "hex"),
        ("amqp://localhost/?heartbeat=-1", "heartbeat"),
        // What does not fit the handshake's frames: the broker would drop every attempt.
        ("amqp://localhost/" + String(repeating: "v", count: 256), "virtual host is over 255 bytes"),
        ("amqp://\(String(repeating: "u", count: 256)):p@localhost/%2F", "user is over 255 bytes"),
        ("amqp://u:\(String(repeating: "p", count: 65_537))@localhost/%2F", "password is over 64 KiB"),
        ("amqp://localhost/%2F?connection_name=" + String(repeating: "c", count: 256), "connection_name is over 255 bytes"),
    ])
    func rejectsMalformedURLsSayingWhy(url: String, reason: String) {
        #expect {
            try AMQPEndpoint(url: url)
        } throws: { error in
            guard let error = error as? AMQPError else { return false }
            return error.code == .invalidURL && error.message.contains(reason)
        }
    }

    @Test func neverPrintsThePassword() throws {
        let endpoint = try AMQPEndpoint(url: "amqp://user:hunter2@host/%2F")
        #expect(!endpoint.description.contains("hunter2"))
        #expect(endpoint.description == "amqp://user:***@host:5672/%2F")
        #expect {
            try AMQPEndpoint(url: "amqp://user:hunter2@host:bad/%2F")
        } throws: { error in
            !"\(error)".contains("hunter2")
        }
    }
}
