import CheckoutMessagingTesting
import RabbitMQ
import Testing

@testable import CheckoutMessaging

/// The rows of the contract's failure table for messages that are not commands: dead-lettered under
/// their original routing key with the reason, and acked; nothing is answered.
@Suite struct CommandHandlerDeadLetterTests {
    /// A message that breaks one rule of the envelope or the body, and the reason it is dead-lettered with.
    struct Unreadable: Sendable, CustomTestStringConvertible {
        var reason: String
        var routingKey = "cart.sync"
        var properties = ClientMessages.properties(messageID: "msg-1")
        var body = ClientMessages.syncCart()
        var bodySize: Int?
        var headersTruncated = false

        var testDescription: String { reason }
    }

    static let unreadable: [Unreadable] = [
        Unreadable(reason: "unknown-routing-key", routingKey: "cart.delete"),
        Unreadable(reason: "missing-message-id", properties: ClientMessages.properties(messageID: nil)),
        Unreadable(reason: "missing-message-id", properties: ClientMessages.properties(messageID: "")),
        Unreadable(
            reason: "unsupported-content-type",
            properties: {
                var properties = ClientMessages.properties(messageID: "msg-1")
                properties.contentType = "text/plain"
                return properties
            }()),
        Unreadable(reason: "body-too-large", bodySize: 300 * 1024),
        Unreadable(reason: "headers-too-deep", headersTruncated: true),
        Unreadable(reason: "invalid-reply-to", properties: ClientMessages.properties(messageID: "msg-1", replyTo: "checkout.sync-cart")),
        Unreadable(
            reason: "invalid-reply-to", properties: ClientMessages.properties(messageID: "msg-1", replyTo: "checkout.retry.sync-cart.1s")),
        Unreadable(reason: "invalid-reply-to", properties: ClientMessages.properties(messageID: "msg-1", replyTo: "checkout.dead-letter")),
        Unreadable(
            reason: "invalid-reply-to", properties: ClientMessages.properties(messageID: "msg-1", replyTo: "amq.rabbitmq.reply-to.abc.def")),
        Unreadable(reason: "invalid-encoding", body: [0x7B, 0xFF, 0x7D]),
        Unreadable(reason: "invalid-json", body: Array(#"{"cartId":"cart-42",}"#.utf8)),
        Unreadable(reason: "missing-field", body: Array(#"{"cartId":"cart-42"}"#.utf8)),
        Unreadable(reason: "wrong-type", body: Array("[]".utf8)),
    ]

    @Test(arguments: unreadable)
    func deadLettersAMessageThatIsNotACommandWithItsReasonAndAcks(_ message: Unreadable) async throws {
        let sut = try await CommandHandlerSUT.make()

        let delivery = await sut.handle(
            .syncCart, routingKey: message.routingKey, properties: message.properties, body: message.body,
            bodySize: message.bodySize, headersTruncated: message.headersTruncated)

        let dead = try #require(sut.deadLetters.only)
        #expect(dead.routingKey == message.routingKey)
        #expect(dead.mandatory)
        #expect(dead.body == message.body)
        let headers = try #require(dead.properties.headers)
        #expect(headers[RetryHeaders.errorReason]?.stringValue == message.reason)
        #expect(headers[RetryHeaders.errorDetail]?.stringValue?.isEmpty == false)
        #expect(headers[RetryHeaders.originalRoutingKey]?.stringValue == message.routingKey)
        #expect(headers[RetryHeaders.deadLetteredAt] == .timestamp(AMQPTimestamp(CommandHandlerSUT.now)))
        #expect(headers["client-header"]?.stringValue == "kept")
        #expect(dead.properties.messageID == message.properties.messageID)
        #expect(dead.properties.correlationID == message.properties.correlationID)
        #expect(sut.settledLast(delivery) == .ack)
        #expect(sut.events.isEmpty && sut.retries.isEmpty)
        #expect(sut.broker.published(toExchange: "").isEmpty)
    }

    /// Only a retry the worker signed says which routing key a command came with; a client's header
    /// neither redirects the command nor names the dead letter's routing key.
    @Test(arguments: ["order.place", String(repeating: "k", count: 256)])
    func aClientsOriginalRoutingKeyHeaderIsNotBelieved(header: String) async throws {
        let sut = try await CommandHandlerSUT.make()
        let headers: AMQPFieldTable = [RetryHeaders.originalRoutingKey: .string(header)]

        await sut.handle(
            .syncCart, properties: ClientMessages.properties(messageID: "msg-1", headers: headers), body: ClientMessages.syncCart())
        await sut.handle(.syncCart, properties: ClientMessages.properties(messageID: "msg-2", headers: headers), body: Array("nope".utf8))

        #expect(sut.events.map(\.routingKey) == ["cart.synced"])
        let dead = try #require(sut.deadLetters.only)
        #expect(dead.properties.headers?[RetryHeaders.errorReason]?.stringValue == "invalid-json")
        #expect(dead.routingKey == "cart.sync")
        #expect(dead.properties.headers?[RetryHeaders.originalRoutingKey]?.stringValue == "cart.sync")
    }

    @Test func theClientsHeadersThatLeaveNoRoomAreDroppedAndNamed() async throws {
        let sut = try await CommandHandlerSUT.make(maximumPropertiesByteCount: 1000)
        // Within the 750 bytes a command may take (a quarter less than the frame), not with the dead letter's headers.
        let headers: AMQPFieldTable = ["big": .string(String(repeating: "x", count: 650))]

        let delivery = await sut.handle(
            .syncCart, properties: ClientMessages.properties(messageID: "msg-1", headers: headers), body: Array("nope".utf8))

        let dead = try #require(sut.deadLetters.only)
        let kept = try #require(dead.properties.headers)
        #expect(
            Set(kept.keys) == [
                RetryHeaders.errorReason, RetryHeaders.errorDetail, RetryHeaders.originalRoutingKey, RetryHeaders.deadLetteredAt,
            ])
        #expect(kept[RetryHeaders.errorReason]?.stringValue == "invalid-json")
        #expect(kept[RetryHeaders.errorDetail]?.stringValue?.hasSuffix("; headers dropped to fit the frame: big") == true)
        #expect(dead.properties.correlationID == "corr-msg-1")
        #expect(sut.settledLast(delivery) == .ack)
    }

    /// A header's size is its bytes: names of combining marks, a few characters each, must not carry the
    /// detail past its thousand bytes.
    @Test func theDetailNamingDroppedHeadersStaysWithinAThousandBytes() async throws {
        let sut = try await CommandHandlerSUT.make(maximumPropertiesByteCount: 20_000)
        var headers: AMQPFieldTable = [:]
        for index in 0..<80 {
            headers["h\(index)" + String(repeating: "\u{301}", count: 75)] = .string(String(repeating: "x", count: 40))
        }

        await sut.handle(.syncCart, properties: ClientMessages.properties(messageID: "msg-1", headers: headers), body: Array("nope".utf8))

        let detail = try #require(sut.deadLetters.only?.properties.headers?[RetryHeaders.errorDetail]?.stringValue)
        #expect(detail.hasPrefix("the properties take"))
        #expect(detail.contains("; headers dropped to fit the frame: h"))
        #expect(detail.utf8.count <= 1000, "\(detail.utf8.count) bytes")
    }

    @Test func propertiesTheBrokerRefusesAreLeftOutKeepingTheBodyTheMessageIDAndTheWorkersHeaders() async throws {
        let sut = try await CommandHandlerSUT.make(maximumPropertiesByteCount: 600)
        var properties = ClientMessages.properties(messageID: "msg-1", headers: [:])
        properties.appID = String(repeating: "a", count: 250)
        properties.userID = String(repeating: "u", count: 250)
        properties.type = String(repeating: "t", count: 250)

        let delivery = await sut.handle(.syncCart, properties: properties, body: Array("nope".utf8))

        let first = try #require(sut.broker.events.first)
        guard case .refused(_, let error) = first else {
            Issue.record("the dead letter with the client's properties was not tried first")
            return
        }
        #expect(error.code == .protocolError)
        let dead = try #require(sut.deadLetters.only)
        #expect(dead.properties.messageID == "msg-1")
        #expect(dead.properties.deliveryMode == .persistent)
        #expect(dead.properties.appID == nil && dead.properties.correlationID == nil)
        // Over the 450 bytes a command may take here (a quarter less than the frame), it is not read further.
        #expect(dead.properties.headers?[RetryHeaders.errorReason]?.stringValue == "headers-too-large")
        #expect(
            dead.properties.headers?[RetryHeaders.errorDetail]?.stringValue?.contains("; properties dropped, they could not be sent: ")
                == true)
        #expect(dead.body == Array("nope".utf8))
        #expect(sut.settledLast(delivery) == .ack)
    }

    /// A client's `expiration` would make the dead letter vanish, its `user_id` have the broker refuse
    /// the worker's publish, and its `CC` and `BCC` headers route the copy to other queues too.
    @Test func aDeadLetterLeavesOutWhatWouldExpireItRouteItElsewhereOrHaveItRefused() async throws {
        let sut = try await CommandHandlerSUT.make()
        var properties = ClientMessages.properties(
            messageID: "msg-1", headers: ["CC": .array([.string("other.queue")]), "BCC": .array([.string("hidden")]), "kept": "yes"])
        properties.expiration = "3000"
        properties.userID = "another-user"

        let delivery = await sut.handle(.syncCart, properties: properties, body: Array("nope".utf8))

        let dead = try #require(sut.deadLetters.only)
        #expect(dead.properties.expiration == nil && dead.properties.userID == nil)
        #expect(dead.properties.headers?["CC"] == nil && dead.properties.headers?["BCC"] == nil)
        #expect(dead.properties.headers?["kept"]?.stringValue == "yes")
        #expect(sut.settledLast(delivery) == .ack)
    }

    /// The broker adds `x-death` to a copy it dead-letters back from a retry queue, and a quorum queue
    /// `x-delivery-count`: a copy that filled its frame would come back too large to be read.
    @Test func aCopyLeavesRoomForTheHeadersTheBrokerAddsLater() async throws {
        let sut = try await CommandHandlerSUT.make()
        let room = sut.broker.maximumPropertiesByteCount - ClientMessages.properties(messageID: "msg-1", headers: [:]).encodedByteCount
        let headers: AMQPFieldTable = ["big": .string(String(repeating: "x", count: room - 3000))]

        await sut.handle(.syncCart, properties: ClientMessages.properties(messageID: "msg-1", headers: headers), body: Array("nope".utf8))

        let dead = try #require(sut.deadLetters.only)
        #expect(dead.properties.headers?["big"] == nil)
        #expect(
            dead.properties.headers?[RetryHeaders.errorDetail]?.stringValue?.hasSuffix("; headers dropped to fit the frame: big") == true)
    }
}
