import CheckoutMessagingTesting
import RabbitMQ
import Testing

@testable import CheckoutMessaging

/// The rows of the contract's failure table that end in an answer: the event is published and
/// confirmed, then the command is acked; nothing is retried or dead-lettered.
@Suite struct CommandHandlerTests {
    @Test func syncsACartPublishesCartSyncedWithTheContractsPropertiesAndAcksAfterTheConfirm() async throws {
        let sut = try await CommandHandlerSUT.make()

        let delivery = await sut.handle(
            .syncCart, properties: ClientMessages.properties(messageID: "sync-1"), body: ClientMessages.syncCart())

        let event = try #require(sut.events.only)
        #expect(event.routingKey == "cart.synced")
        #expect(event.properties.type == "cart.synced")
        #expect(event.properties.messageID == "sync-1/cart.synced")
        #expect(event.properties.correlationID == "corr-sync-1")
        #expect(event.properties.headers?["causation_id"]?.stringValue == "sync-1")
        #expect(event.properties.contentType == "application/json")
        #expect(event.properties.deliveryMode == .persistent)
        #expect(event.properties.timestamp == AMQPTimestamp(CommandHandlerSUT.now))
        #expect(ClientMessages.json(event)["version"] as? Int == 1)
        #expect(sut.settledLast(delivery) == .ack)
        #expect(sut.retries.isEmpty && sut.deadLetters.isEmpty)
    }

    /// `application/json` is a media type: its case, parameters and the spaces around it do not matter.
    @Test(arguments: [
        ("application/json", "cart.synced"), ("Application/JSON", "cart.synced"), (" application/json ; charset=utf-8", "cart.synced"),
        ("application/json\t", "cart.synced"), ("application/jsonx", nil), ("application/json-seq", nil), ("application", nil),
        ("", nil),
    ])
    func readsACommandWhoseContentTypeIsJSONInAnyCaseWithParameters(contentType: String, answer: String?) async throws {
        let sut = try await CommandHandlerSUT.make()
        var properties = ClientMessages.properties(messageID: "sync-1")
        properties.contentType = contentType

        await sut.handle(.syncCart, properties: properties, body: ClientMessages.syncCart())

        #expect(sut.events.map(\.routingKey) == (answer.map { [$0] } ?? []))
        #expect(
            sut.deadLetters.map { $0.properties.headers?["x-error-reason"]?.stringValue }
                == (answer == nil ? ["unsupported-content-type"] : []))
    }

    @Test func answersOnReplyToThroughTheDefaultExchangeToo() async throws {
        let sut = try await CommandHandlerSUT.make()

        let delivery = await sut.handle(
            .syncCart, properties: ClientMessages.properties(messageID: "sync-1", replyTo: "client.answers"),
            body: ClientMessages.syncCart())

        let answer = try #require(sut.broker.published(toExchange: "", routingKey: "client.answers").only)
        #expect(answer.properties.messageID == "sync-1/cart.synced")
        #expect(answer.body == sut.events.only?.body)
        #expect(sut.settledLast(delivery) == .ack)
    }

    /// A `reply_to` queue that refuses the answer (full, with `x-overflow: reject-publish`) is the
    /// client's choice, as one that does not exist is: the event is on the events exchange, and the
    /// command is done, not retried until it is dead-lettered as given up.
    @Test func aReplyToQueueThatRefusesTheAnswerDoesNotFailTheCommand() async throws {
        let sut = try await CommandHandlerSUT.make()
        sut.broker.failPublishes(toExchange: "", with: AMQPError(code: .publishNacked, message: "nacked"))

        let delivery = await sut.handle(
            .syncCart, properties: ClientMessages.properties(messageID: "sync-1", replyTo: "client.full"),
            body: ClientMessages.syncCart())

        #expect(sut.events.map(\.routingKey) == ["cart.synced"])
        #expect(sut.retries.isEmpty && sut.deadLetters.isEmpty)
        #expect(sut.settledLast(delivery) == .ack)
    }

    @Test func aBusinessRuleRejectionIsPublishedAndAcked() async throws {
        let sut = try await CommandHandlerSUT.make()

        let delivery = await sut.handle(
            .syncCart, properties: ClientMessages.properties(messageID: "sync-1"), body: ClientMessages.syncCart(baseVersion: 3))

        let event = try #require(sut.events.only)
        #expect(event.routingKey == "cart.sync-rejected")
        #expect(ClientMessages.json(event)["reason"] as? String == "version-conflict")
        #expect(sut.settledLast(delivery) == .ack)
        #expect(sut.retries.isEmpty && sut.deadLetters.isEmpty)
    }

    @Test func aFieldBreakingARuleOfFormIsAnsweredInvalidRequestNotDeadLettered() async throws {
        let sut = try await CommandHandlerSUT.make()

        let delivery = await sut.handle(
            .syncCart, properties: ClientMessages.properties(messageID: "sync-1"),
            body: ClientMessages.syncCart(quantity: 0))

        #expect(ClientMessages.json(try #require(sut.events.only))["reason"] as? String == "invalid-request")
        #expect(sut.settledLast(delivery) == .ack)
        #expect(sut.deadLetters.isEmpty)
    }

    /// A `message_id` over the 200 bytes a command id may have is answered `invalid-request`; near AMQP's
    /// 255, its event's id would not fit, so the answer takes the id's SHA-256 in its place.
    @Test(arguments: [
        (String(repeating: "m", count: 236), "\(String(repeating: "m", count: 236))/cart.sync-rejected"),
        (
            String(repeating: "m", count: 237),
            "sha256:b1483fe70172c4a673da61b4d39897a486ac9bc9761e767e8b62fd7beffab21f/cart.sync-rejected"
        ),
        (
            String(repeating: "é", count: 125),
            "sha256:34227530c904c7f8581466d6498e6370426a10b098a4d1603681383e1cf4bf40/cart.sync-rejected"
        ),
    ])
    func aMessageIDTooLongForItsEventsIDIsAnsweredUnderItsDigest(messageID: String, eventID: String) async throws {
        let sut = try await CommandHandlerSUT.make()

        let delivery = await sut.handle(
            .syncCart, properties: ClientMessages.properties(messageID: messageID), body: ClientMessages.syncCart())

        let event = try #require(sut.events.only)
        #expect(ClientMessages.json(event)["reason"] as? String == "invalid-request")
        #expect(event.properties.messageID == eventID)
        #expect(event.properties.headers?["causation_id"]?.stringValue == messageID)
        #expect(sut.settledLast(delivery) == .ack)
        #expect(sut.retries.isEmpty && sut.deadLetters.isEmpty)
    }

    @Test func theSameCommandAgainRepublishesTheSameEvent() async throws {
        let sut = try await CommandHandlerSUT.make()
        let properties = ClientMessages.properties(messageID: "sync-1")

        await sut.handle(.syncCart, properties: properties, body: ClientMessages.syncCart())
        let again = await sut.handle(.syncCart, properties: properties, body: ClientMessages.syncCart())

        #expect(sut.events.count == 2)
        #expect(sut.events.map(\.properties.messageID) == ["sync-1/cart.synced", "sync-1/cart.synced"])
        #expect(sut.events[0].body == sut.events[1].body)
        #expect(sut.settledLast(again) == .ack)
    }

    @Test func anotherCommandReusingAMessageIDIsAnsweredDuplicateMessageIDWithNothingOfTheFirst() async throws {
        let sut = try await CommandHandlerSUT.make()
        let properties = ClientMessages.properties(messageID: "sync-1")

        await sut.handle(.syncCart, properties: properties, body: ClientMessages.syncCart())
        let reused = await sut.handle(.syncCart, properties: properties, body: ClientMessages.syncCart(cart: "cart-other"))

        let answer = try #require(sut.events.last)
        #expect(answer.routingKey == "cart.sync-rejected")
        #expect(ClientMessages.json(answer)["reason"] as? String == "duplicate-message-id")
        #expect(ClientMessages.json(answer)["cartId"] as? String == "cart-other")
        #expect(sut.settledLast(reused) == .ack)
        #expect(sut.deadLetters.isEmpty)
    }

    @Test func placesAnOrderFromASyncedCart() async throws {
        let sut = try await CommandHandlerSUT.make()
        await sut.handle(.syncCart, properties: ClientMessages.properties(messageID: "sync-1"), body: ClientMessages.syncCart())

        let delivery = await sut.handle(
            .placeOrder, properties: ClientMessages.properties(messageID: "order-1"), body: ClientMessages.placeOrder())

        let event = try #require(sut.events.last)
        #expect(event.routingKey == "order.placed")
        #expect(event.properties.messageID == "order-1/order.placed")
        #expect(ClientMessages.json(event)["total"] as? Int == 5998)
        #expect(sut.settledLast(delivery) == .ack)
    }

    @Test func aDeclinedPaymentIsAnsweredAtOnceNotRetried() async throws {
        let sut = try await CommandHandlerSUT.make()
        await sut.handle(.syncCart, properties: ClientMessages.properties(messageID: "sync-1"), body: ClientMessages.syncCart())

        let delivery = await sut.handle(
            .placeOrder, properties: ClientMessages.properties(messageID: "order-1"),
            body: ClientMessages.placeOrder(token: "tok_chargeDeclined"))

        let event = try #require(sut.events.last)
        #expect(event.routingKey == "order.rejected")
        #expect(ClientMessages.json(event)["reason"] as? String == "payment-declined")
        #expect(sut.settledLast(delivery) == .ack)
        #expect(sut.retries.isEmpty && sut.deadLetters.isEmpty)
    }
}
