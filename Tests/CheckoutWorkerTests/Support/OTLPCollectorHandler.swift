import NIOCore
import NIOHTTP1

/// Accepts each export ``OTLPCollector`` receives, whole requests put together by NIO's aggregator.
final class OTLPCollectorHandler: ChannelInboundHandler {
    typealias InboundIn = NIOHTTPServerRequestFull
    typealias OutboundOut = HTTPServerResponsePart

    private let received: OTLPCollectorRequests

    init(received: OTLPCollectorRequests) {
        self.received = received
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let request = unwrapInboundIn(data)
        received.append(path: request.head.uri, body: request.body.map { String(buffer: $0) } ?? "")
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Content-Length", value: "2")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: request.head.version, status: .ok, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: "{}")))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}
