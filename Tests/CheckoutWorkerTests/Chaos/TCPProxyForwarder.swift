import NIOCore

/// One direction of a ``TCPProxy`` connection: what one side sends is written to the other, and
/// when either side closes, so does the other.
final class TCPProxyForwarder: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    private let partner: any Channel

    init(partner: any Channel) {
        self.partner = partner
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        partner.writeAndFlush(unwrapInboundIn(data), promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        partner.close(promise: nil)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
