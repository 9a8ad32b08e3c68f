import Foundation
import RabbitMQ
import Testing

/// Against the TLS listener of the test node, with the certificates scripts/test-servers.sh made.
@Suite struct AMQPTLSTests {
    private func configuration(
        url: String = TestBroker.tlsURL, caFile: String?, clientCertificate: Bool = false
    ) throws -> AMQPConfiguration {
        var configuration = try TestBroker.configuration(urls: url)
        configuration.tls = AMQPTLSConfiguration(
            caFile: caFile,
            certificateFile: clientCertificate ? TestBroker.clientCertificateFile : nil,
            keyFile: clientCertificate ? TestBroker.clientKeyFile : nil
        )
        return configuration
    }

    @Test func connectsWithVerificationAndPublishesOverTLS() async throws {
        let caFile = try #require(TestBroker.caFile, "RABBITMQ_CA_FILE is not set: run the tests through scripts/test.sh")
        let connection = try await TestBroker.connect(try configuration(caFile: caFile))
        defer { Task { await connection.close() } }
        let queue = try await TestBroker.temporaryQueue("tls", on: connection)
        try await connection.publish(AMQPMessage(exchange: "", routingKey: queue, body: "secret".bytes))
        let consumer = try await connection.consume(queue: queue, prefetch: 1)
        var iterator = consumer.makeAsyncIterator()
        let delivery = try #require(await iterator.next())
        delivery.ack()
        #expect(delivery.body == "secret".bytes)
        _ = try await connection.deleteQueue(queue)
    }

    @Test func presentsAClientCertificate() async throws {
        let caFile = try #require(TestBroker.caFile, "RABBITMQ_CA_FILE is not set: run the tests through scripts/test.sh")
        _ = try #require(TestBroker.clientCertificateFile, "RABBITMQ_CLIENT_CERT_FILE is not set")
        let connection = try await TestBroker.connect(try configuration(caFile: caFile, clientCertificate: true))
        #expect(connection.isConnected)
        await connection.close()
    }

    @Test func refusesABrokerSignedByAnotherCA() async throws {
        let wrongCA = try #require(TestBroker.wrongCAFile, "RABBITMQ_WRONG_CA_FILE is not set: run the tests through scripts/test.sh")
        await #expect {
            _ = try await TestBroker.connect(try configuration(caFile: wrongCA))
        } throws: { error in
            guard let error = error as? AMQPError else { return false }
            return error.code == .tls && error.message.contains("trusted CA")
        }
    }

    @Test func refusesACertificateIssuedForAnotherHost() async throws {
        let caFile = try #require(TestBroker.caFile, "RABBITMQ_CA_FILE is not set: run the tests through scripts/test.sh")
        // The server certificate names localhost; reaching the same listener by IP must fail the hostname check.
        let byIP = TestBroker.tlsURL.replacingOccurrences(of: "@localhost:", with: "@127.0.0.1:")
        try #require(byIP != TestBroker.tlsURL)
        await #expect {
            _ = try await TestBroker.connect(try configuration(url: byIP, caFile: caFile))
        } throws: { error in
            guard let error = error as? AMQPError else { return false }
            return error.code == .tls && error.message.contains("not issued for host '127.0.0.1'")
        }
    }

    @Test func reportsAMissingCAFileByName() async throws {
        await #expect {
            _ = try await TestBroker.connect(try configuration(caFile: "/nonexistent/ca.pem"))
        } throws: { error in
            (error as? AMQPError)?.code == .tls && "\(error)".contains("/nonexistent/ca.pem")
        }
    }
}
