import NIOCore
import NIOHTTP1

/// Reads whole HTTP/1 requests off one connection and writes ``FakeStripeAPI``'s replies, when they are due.
final class FakeStripeHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let api: FakeStripeAPI
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()

    init(api: FakeStripeAPI) {
        self.api = api
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body.clear()
        case .body(var chunk):
            body.writeBuffer(&chunk)
        case .end:
            guard let head else { return }
            self.head = nil
            let reply = api.handle(FakeStripeRequest(head: head, body: body))
            switch reply.delivery {
            case .immediately, .trickled:
                write(reply, for: head, context: context)
            case .after(let delay):
                context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(delay)) {
                    self.write(reply, for: head, context: context)
                }
            case .never:
                context.close(promise: nil)
            }
        }
    }

    private func write(_ reply: FakeStripeReply, for request: HTTPRequestHead, context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Content-Length", value: String(reply.body.utf8.count))
        headers.add(name: "Request-Id", value: "req_fake")
        if reply.replayed {
            headers.add(name: "Idempotent-Replayed", value: "true")
        }
        if !request.isKeepAlive {
            headers.add(name: "Connection", value: "close")
        }
        let head = HTTPResponseHead(version: request.version, status: HTTPResponseStatus(statusCode: reply.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if case .trickled(let interval) = reply.delivery {
            context.flush()
            trickle(Array(reply.body.utf8)[...], every: interval, keepAlive: request.isKeepAlive, context: context)
            return
        }
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: reply.body)))), promise: nil)
        end(keepAlive: request.isKeepAlive, context: context)
    }

    /// Writes `body` a byte per `interval`, then ends the answer; stops when the client goes away.
    private func trickle(_ body: ArraySlice<UInt8>, every interval: Duration, keepAlive: Bool, context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        guard let byte = body.first else { return end(keepAlive: keepAlive, context: context) }
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: [byte])))), promise: nil)
        context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(interval)) {
            self.trickle(body.dropFirst(), every: interval, keepAlive: keepAlive, context: context)
        }
    }

    private func end(keepAlive: Bool, context: ChannelHandlerContext) {
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            written.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }
}
