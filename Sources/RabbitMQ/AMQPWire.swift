internal import CRabbitMQ
internal import CRabbitMQShim
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One librabbitmq connection: every `amqp_*` call the driver makes goes through here (the values
/// it sends are built in `AMQPCValues.swift`, the only other file that touches the C types).
///
/// A plain value around the C handle, so that holding or passing it costs nothing on the hot path. It
/// is used only on the driver's thread (librabbitmq is not thread-safe), which is why it is not
/// `Sendable`. The handle lives from ``open(_:configuration:frameMax:clientProperties:arena:onSocket:)``
/// until ``destroy()``.
struct AMQPWire {
    private let state: amqp_connection_state_t
    /// The largest frame the broker accepts, as negotiated at login: every frame sent fits in it.
    let frameMax: Int

    private init(_ state: amqp_connection_state_t, frameMax: Int) {
        self.state = state
        self.frameMax = frameMax
    }

    /// How much larger than the negotiated size a frame read may be. A broker that hands a message back
    /// adds headers to it (`x-delivery-count` from a quorum queue, `x-death` when it dead-letters), and
    /// sends the content header even when that no longer fits the negotiated frame; librabbitmq refuses
    /// such a frame and drops the connection, and every worker the message goes to next would too.
    /// Read, such a delivery is dead-lettered for its size (`maximumRedeliverablePropertiesByteCount`).
    ///
    /// A client that may declare a queue can have a message dead-lettered into the commands exchange
    /// with a `CC` header of a frame's worth of routing keys, which dead-lettering keeps and copies into
    /// `x-death` again, at each queue it passes: twice a frame after one, more after a chain of them.
    /// A mebibyte reads what a chain of six makes. librabbitmq sizes its outbound buffer by this too,
    /// but only the negotiated size of it is ever written, so the rest is never resident.
    static let inboundFrameAllowance = 1 << 20

    /// Connects and logs in; `onSocket` learns the socket as soon as it is open, so that a watchdog can
    /// shut it down while the handshake is still running.
    static func open(
        _ endpoint: AMQPEndpoint, configuration: AMQPConfiguration, frameMax: Int32,
        clientProperties: AMQPFieldTable, arena: AMQPCArena,
        onSocket: (Int32) -> Void
    ) throws(AMQPError) -> AMQPWire {
        guard let state = amqp_new_connection() else {
            throw AMQPError(code: .protocolError, message: "librabbitmq could not allocate a connection")
        }
        do throws(AMQPError) {
            let socket = try makeSocket(for: endpoint, tls: configuration.tls, on: state)
            var timeout = makeTimeval(configuration.connectTimeout)
            let opened = amqp_socket_open_noblock(socket, endpoint.host, Int32(endpoint.port), &timeout)
            guard opened == AMQP_STATUS_OK.rawValue else { throw AMQPError.openFailed(opened, endpoint: endpoint) }
            onSocket(amqp_get_sockfd(state))
            keepAlive(amqp_get_sockfd(state))
            _ = amqp_set_handshake_timeout(state, &timeout)
            _ = amqp_set_rpc_timeout(state, &timeout)

            defer { arena.reset() }
            var properties = arena.table(clientProperties)
            let heartbeat = Int32(endpoint.heartbeatSeconds ?? configuration.heartbeatSeconds)
            let reply = crabbitmq_login_plain(
                state, endpoint.virtualHost, 0, frameMax, heartbeat,
                &properties, endpoint.user, endpoint.password)
            try AMQPError.check(
                reply, doing: "log in to \(endpoint) as '\(endpoint.user)' on virtual host '\(endpoint.virtualHost)'",
                failureCode: .authenticationFailed)
            let negotiated = amqp_get_frame_max(state)
            try AMQPError.check(
                amqp_tune_connection(
                    state, amqp_get_channel_max(state), negotiated + Int32(inboundFrameAllowance), amqp_get_heartbeat(state)),
                doing: "allow for the headers a broker adds to a message it hands back")
            return AMQPWire(state, frameMax: Int(negotiated))
        } catch {
            amqp_destroy_connection(state)
            throw error
        }
    }

    /// TCP keepalive probes after 30 s of silence, every 10 s, three unanswered ending the connection: a
    /// broker that vanished without a word (its host gone, a NAT entry dropped) is then noticed by an idle
    /// connection within a minute even with heartbeats off (`heartbeat=0`), rather than after the kernel's
    /// two hours and more that librabbitmq's own `SO_KEEPALIVE` leaves.
    private static func keepAlive(_ socket: Int32) {
        #if canImport(Darwin)
        let idle = TCP_KEEPALIVE
        #else
        let idle = TCP_KEEPIDLE
        #endif
        for (level, option, value) in [
            (SOL_SOCKET, SO_KEEPALIVE, 1), (Int32(IPPROTO_TCP), idle, 30), (Int32(IPPROTO_TCP), TCP_KEEPINTVL, 10),
            (Int32(IPPROTO_TCP), TCP_KEEPCNT, 3),
        ] {
            var value = Int32(value)
            _ = setsockopt(socket, level, option, &value, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    private static func makeSocket(
        for endpoint: AMQPEndpoint, tls: AMQPTLSConfiguration,
        on state: amqp_connection_state_t
    ) throws(AMQPError) -> OpaquePointer {
        guard endpoint.usesTLS else {
            guard let socket = amqp_tcp_socket_new(state) else {
                throw AMQPError(code: .protocolError, message: "librabbitmq could not create a TCP socket")
            }
            return socket
        }
        guard let socket = amqp_ssl_socket_new(state) else {
            throw AMQPError(code: .tls, message: "could not create a TLS socket (OpenSSL initialisation failed)")
        }
        guard amqp_ssl_socket_set_ssl_versions(socket, AMQP_TLSv1_2, AMQP_TLSvLATEST) == AMQP_STATUS_OK.rawValue else {
            throw AMQPError(code: .tls, message: "this OpenSSL cannot do TLS 1.2 or later")
        }
        if let caFile = tls.caFile {
            let status = amqp_ssl_socket_set_cacert(socket, caFile)
            guard status == AMQP_STATUS_OK.rawValue else {
                throw AMQPError(code: .tls, message: "cannot load the CA file '\(caFile)': \(statusText(status))")
            }
        } else if let context = amqp_ssl_socket_get_context(socket) {
            SSL_CTX_set_default_verify_paths(OpaquePointer(context))
        }
        if let certificateFile = tls.certificateFile {
            guard let keyFile = tls.keyFile else {
                throw AMQPError(code: .tls, message: "a client certificate needs its key file too")
            }
            let status = amqp_ssl_socket_set_key(socket, certificateFile, keyFile)
            guard status == AMQP_STATUS_OK.rawValue else {
                throw AMQPError(
                    code: .tls,
                    message: "cannot load the client certificate '\(certificateFile)' with key '\(keyFile)': \(statusText(status))")
            }
        }
        amqp_ssl_socket_set_verify_peer(socket, tls.verifyPeer ? 1 : 0)
        amqp_ssl_socket_set_verify_hostname(socket, tls.verifyHostname ? 1 : 0)
        return socket
    }

    func destroy() { amqp_destroy_connection(state) }

    var socket: Int32 { amqp_get_sockfd(state) }
    /// Whether librabbitmq holds frames or bytes it has read but not yet handed out.
    var hasBufferedInput: Bool { amqp_frames_enqueued(state) != 0 || amqp_data_in_buffer(state) != 0 }

    static func statusText(_ status: Int32) -> String { String(cString: amqp_error_string2(status)) }

    // MARK: - Methods

    private func send(_ method: UInt32, _ arguments: UnsafeMutableRawPointer, on channel: UInt16, doing action: String) throws(AMQPError) {
        try AMQPError.check(amqp_send_method(state, channel, method, arguments), doing: action)
    }

    private static let sendingAMethod = "send a method to the broker"

    func sendChannelOpen(_ channel: UInt16) throws(AMQPError) {
        var open = amqp_channel_open_t()
        try send(AMQPMethod.channelOpen, &open, on: channel, doing: Self.sendingAMethod)
    }

    func sendConfirmSelect(_ channel: UInt16) throws(AMQPError) {
        var select = amqp_confirm_select_t()
        try send(AMQPMethod.confirmSelect, &select, on: channel, doing: Self.sendingAMethod)
    }

    func sendChannelClose(_ channel: UInt16, doing action: String = sendingAMethod) throws(AMQPError) {
        var close = amqp_channel_close_t()
        close.reply_code = 200
        try send(AMQPMethod.channelClose, &close, on: channel, doing: action)
    }

    func sendChannelCloseOK(_ channel: UInt16) {
        var closeOK = amqp_channel_close_ok_t()
        _ = amqp_send_method(state, channel, AMQPMethod.channelCloseOK, &closeOK)
    }

    /// Returns false when the method could not be sent.
    func sendConnectionClose(replyText: String, arena: AMQPCArena) -> Bool {
        defer { arena.reset() }
        var close = amqp_connection_close_t()
        close.reply_code = 200
        close.reply_text = arena.bytes(replyText)
        return amqp_send_method(state, 0, AMQPMethod.connectionClose, &close) == AMQP_STATUS_OK.rawValue
    }

    func sendConnectionCloseOK() {
        var closeOK = amqp_connection_close_ok_t()
        _ = amqp_send_method(state, 0, AMQPMethod.connectionCloseOK, &closeOK)
    }

    func sendDeclare(_ exchange: AMQPTopology.Exchange, on channel: UInt16, arena: AMQPCArena) throws(AMQPError) {
        defer { arena.reset() }
        var method = amqp_exchange_declare_t()
        method.exchange = arena.bytes(exchange.name)
        method.type = arena.bytes(exchange.type)
        method.durable = exchange.durable ? 1 : 0
        method.auto_delete = exchange.autoDelete ? 1 : 0
        method.arguments = arena.table(exchange.arguments)
        try send(AMQPMethod.exchangeDeclare, &method, on: channel, doing: Self.sendingAMethod)
    }

    /// A passive declare only asks whether the queue exists, whatever its properties and arguments.
    func sendDeclare(_ queue: AMQPTopology.Queue, passive: Bool = false, on channel: UInt16, arena: AMQPCArena) throws(AMQPError) {
        defer { arena.reset() }
        var method = amqp_queue_declare_t()
        method.queue = arena.bytes(queue.name)
        method.passive = passive ? 1 : 0
        method.durable = queue.durable ? 1 : 0
        method.exclusive = queue.exclusive ? 1 : 0
        method.auto_delete = queue.autoDelete ? 1 : 0
        method.arguments = arena.table(queue.arguments)
        try send(AMQPMethod.queueDeclare, &method, on: channel, doing: Self.sendingAMethod)
    }

    func sendBind(_ binding: AMQPTopology.Binding, on channel: UInt16, arena: AMQPCArena) throws(AMQPError) {
        defer { arena.reset() }
        var method = amqp_queue_bind_t()
        method.queue = arena.bytes(binding.queue)
        method.exchange = arena.bytes(binding.exchange)
        method.routing_key = arena.bytes(binding.routingKey)
        method.arguments = arena.table(binding.arguments)
        try send(AMQPMethod.queueBind, &method, on: channel, doing: Self.sendingAMethod)
    }

    func sendPurge(queue: String, on channel: UInt16, arena: AMQPCArena) throws(AMQPError) {
        defer { arena.reset() }
        var method = amqp_queue_purge_t()
        method.queue = arena.bytes(queue)
        try send(AMQPMethod.queuePurge, &method, on: channel, doing: Self.sendingAMethod)
    }

    func sendDelete(queue: String, on channel: UInt16, arena: AMQPCArena) throws(AMQPError) {
        defer { arena.reset() }
        var method = amqp_queue_delete_t()
        method.queue = arena.bytes(queue)
        try send(AMQPMethod.queueDelete, &method, on: channel, doing: Self.sendingAMethod)
    }

    func sendDelete(exchange: String, on channel: UInt16, arena: AMQPCArena) throws(AMQPError) {
        defer { arena.reset() }
        var method = amqp_exchange_delete_t()
        method.exchange = arena.bytes(exchange)
        try send(AMQPMethod.exchangeDelete, &method, on: channel, doing: Self.sendingAMethod)
    }

    func sendQos(prefetch: UInt16, on channel: UInt16) throws(AMQPError) {
        var qos = amqp_basic_qos_t()
        qos.prefetch_count = prefetch
        try send(AMQPMethod.basicQos, &qos, on: channel, doing: Self.sendingAMethod)
    }

    func sendConsume(queue: String, consumerTag: String, on channel: UInt16, arena: AMQPCArena) throws(AMQPError) {
        defer { arena.reset() }
        var consume = amqp_basic_consume_t()
        consume.queue = arena.bytes(queue)
        consume.consumer_tag = arena.bytes(consumerTag)
        try send(AMQPMethod.basicConsume, &consume, on: channel, doing: Self.sendingAMethod)
    }

    func sendCancel(consumerTag: String, on channel: UInt16, arena: AMQPCArena) throws(AMQPError) {
        defer { arena.reset() }
        var method = amqp_basic_cancel_t()
        method.consumer_tag = arena.bytes(consumerTag)
        method.nowait = 1
        try send(AMQPMethod.basicCancel, &method, on: channel, doing: "cancel a consumer")
    }

    func sendGet(queue: String, on channel: UInt16, arena: AMQPCArena) throws(AMQPError) {
        defer { arena.reset() }
        var get = amqp_basic_get_t()
        get.queue = arena.bytes(queue)
        try send(AMQPMethod.basicGet, &get, on: channel, doing: "read from queue '\(queue)'")
    }

    // MARK: - Settling

    func ack(_ deliveryTag: UInt64, multiple: Bool, on channel: UInt16) throws(AMQPError) {
        try AMQPError.check(amqp_basic_ack(state, channel, deliveryTag, multiple ? 1 : 0), doing: "ack deliveries")
    }

    func nack(
        _ deliveryTag: UInt64, multiple: Bool, requeue: Bool, on channel: UInt16, doing action: String = "nack a delivery"
    ) throws(AMQPError) {
        try AMQPError.check(amqp_basic_nack(state, channel, deliveryTag, multiple ? 1 : 0, requeue ? 1 : 0), doing: action)
    }

    func reject(_ deliveryTag: UInt64, requeue: Bool, on channel: UInt16, doing action: String = "reject a delivery") throws(AMQPError) {
        try AMQPError.check(amqp_basic_reject(state, channel, deliveryTag, requeue ? 1 : 0), doing: action)
    }

    // MARK: - Publishing

    /// Publishes `message`: into `buffer` when given (gathered, written later), else frame by frame at
    /// once. Returns an `amqp_status_enum`.
    func publish(
        _ message: AMQPMessage, on channel: UInt16, gatheringInto buffer: inout AMQPWriteBuffer, gathers: Bool,
        arena: AMQPCArena
    ) -> Int {
        defer { arena.reset() }
        var properties = arena.properties(message.properties)
        let exchange = arena.bytes(message.exchange)
        let routingKey = arena.bytes(message.routingKey)
        return message.body.withUnsafeBytes { body -> Int in
            guard gathers else {
                return sendPublish(
                    on: channel, exchange: exchange, routingKey: routingKey, mandatory: message.mandatory, properties: &properties,
                    body: body)
            }
            let written = buffer.append(atMost: crabbitmq_publish_size_limit(body.count, frameMax)) { frames in
                crabbitmq_encode_publish(
                    frames, frameMax, channel, exchange.bytes, exchange.len, routingKey.bytes,
                    routingKey.len, message.mandatory ? 1 : 0, &properties, body.baseAddress, body.count)
            }
            return written < 0 ? written : Int(AMQP_STATUS_OK.rawValue)
        }
    }

    /// What `amqp_basic_publish` sends, with the body cut to the negotiated frame size: librabbitmq's
    /// own size is ``inboundFrameAllowance`` larger, and the broker closes a connection that sends a
    /// frame over the negotiated one.
    private func sendPublish(
        on channel: UInt16, exchange: amqp_bytes_t, routingKey: amqp_bytes_t, mandatory: Bool,
        properties: inout amqp_basic_properties_t, body: UnsafeRawBufferPointer
    ) -> Int {
        var method = amqp_basic_publish_t(
            ticket: 0, exchange: exchange, routing_key: routingKey, mandatory: mandatory ? 1 : 0, immediate: 0)
        var status = amqp_send_method(state, channel, AMQPMethod.basicPublish, &method)
        guard status == AMQP_STATUS_OK.rawValue else { return Int(status) }
        return withUnsafeMutablePointer(to: &properties) { decoded -> Int in
            var header = amqp_frame_t()
            header.frame_type = UInt8(AMQP_FRAME_HEADER)
            header.channel = channel
            header.payload.properties.class_id = UInt16(AMQP_BASIC_CLASS)
            header.payload.properties.body_size = UInt64(body.count)
            header.payload.properties.decoded = UnsafeMutableRawPointer(decoded)
            status = amqp_send_frame(state, &header)
            let fragmentLimit = frameMax - 8
            var offset = 0
            while status == AMQP_STATUS_OK.rawValue, offset < body.count {
                let length = min(fragmentLimit, body.count - offset)
                var fragment = amqp_frame_t()
                fragment.frame_type = UInt8(AMQP_FRAME_BODY)
                fragment.channel = channel
                fragment.payload.body_fragment = amqp_bytes_t(
                    len: length, bytes: UnsafeMutableRawPointer(mutating: body.baseAddress! + offset))
                status = amqp_send_frame(state, &fragment)
                offset += length
            }
            return Int(status)
        }
    }

    static var statusOK: Int { Int(AMQP_STATUS_OK.rawValue) }

    // MARK: - Reading

    /// The next frame librabbitmq can hand out without waiting, or nil. A body fragment points into
    /// librabbitmq's buffers: valid until ``releaseBuffers(on:)``.
    func nextFrame() throws(AMQPError) -> AMQPInboundFrame? {
        var frame = amqp_frame_t()
        var noWait = timeval(tv_sec: 0, tv_usec: 0)
        let status = amqp_simple_wait_frame_noblock(state, &frame, &noWait)
        if status == AMQP_STATUS_TIMEOUT.rawValue { return nil }
        guard status == AMQP_STATUS_OK.rawValue else {
            throw AMQPError(code: .connectionLost, message: Self.statusText(status))
        }
        let channel = frame.channel
        switch Int32(frame.frame_type) {
        case AMQP_FRAME_METHOD:
            let method = frame.payload.method
            return .method(channel: channel, id: method.id, Self.decode(method))
        case AMQP_FRAME_HEADER:
            var properties: AMQPProperties?
            var headersTruncated = false
            if let decoded = frame.payload.properties.decoded {
                var decoding = AMQPCDecoding()
                properties = decoding.properties(decoded.assumingMemoryBound(to: amqp_basic_properties_t.self).pointee)
                headersTruncated = decoding.truncatedHeaders
            }
            return .header(
                channel: channel, properties: properties, headersTruncated: headersTruncated,
                bodySize: Int(clamping: frame.payload.properties.body_size))
        case AMQP_FRAME_BODY:
            let fragment = frame.payload.body_fragment
            return .body(channel: channel, UnsafeRawBufferPointer(start: fragment.bytes, count: fragment.len))
        default:
            return .other(channel: channel)
        }
    }

    func releaseBuffers(on channel: UInt16) { amqp_maybe_release_buffers_on_channel(state, channel) }

    private static func decode(_ method: amqp_method_t) -> AMQPInboundMethod {
        func decoded<T>(_ type: T.Type) -> T { method.decoded.assumingMemoryBound(to: type).pointee }
        switch method.id {
        case AMQPMethod.basicDeliver:
            let deliver = decoded(amqp_basic_deliver_t.self)
            return .deliver(
                deliveryTag: deliver.delivery_tag, redelivered: deliver.redelivered != 0,
                exchange: AMQPCDecoding.string(deliver.exchange), routingKey: AMQPCDecoding.string(deliver.routing_key))
        case AMQPMethod.basicGetOK:
            let got = decoded(amqp_basic_get_ok_t.self)
            return .getOK(
                deliveryTag: got.delivery_tag, redelivered: got.redelivered != 0,
                exchange: AMQPCDecoding.string(got.exchange), routingKey: AMQPCDecoding.string(got.routing_key),
                remaining: got.message_count)
        case AMQPMethod.basicGetEmpty:
            return .getEmpty
        case AMQPMethod.basicReturn:
            let returned = decoded(amqp_basic_return_t.self)
            return .returned(
                replyCode: Int(returned.reply_code), replyText: AMQPCDecoding.string(returned.reply_text),
                exchange: AMQPCDecoding.string(returned.exchange), routingKey: AMQPCDecoding.string(returned.routing_key))
        case AMQPMethod.basicAck:
            let ack = decoded(amqp_basic_ack_t.self)
            return .ack(deliveryTag: ack.delivery_tag, multiple: ack.multiple != 0)
        case AMQPMethod.basicNack:
            let nack = decoded(amqp_basic_nack_t.self)
            return .nack(deliveryTag: nack.delivery_tag, multiple: nack.multiple != 0)
        case AMQPMethod.basicCancel:
            return .cancel
        case AMQPMethod.channelClose:
            let close = decoded(amqp_channel_close_t.self)
            return .channelClose(replyCode: Int(close.reply_code), replyText: AMQPCDecoding.string(close.reply_text))
        case AMQPMethod.connectionClose:
            let close = decoded(amqp_connection_close_t.self)
            return .connectionClose(replyCode: Int(close.reply_code), replyText: AMQPCDecoding.string(close.reply_text))
        case AMQPMethod.connectionBlocked:
            return .blocked(reason: AMQPCDecoding.string(decoded(amqp_connection_blocked_t.self).reason))
        case AMQPMethod.connectionUnblocked:
            return .unblocked
        case AMQPMethod.queuePurgeOK:
            return .reply(.messageCount(decoded(amqp_queue_purge_ok_t.self).message_count))
        case AMQPMethod.queueDeleteOK:
            return .reply(.messageCount(decoded(amqp_queue_delete_ok_t.self).message_count))
        default:
            return .reply(.ok)
        }
    }

    static func makeTimeval(_ duration: Duration) -> timeval {
        let parts = duration.components
        return timeval(tv_sec: Int(parts.seconds), tv_usec: Int(parts.attoseconds / 1_000_000_000_000))
    }
}

/// A frame as the driver sees it, decoded from librabbitmq's.
enum AMQPInboundFrame {
    case method(channel: UInt16, id: UInt32, AMQPInboundMethod)
    /// A content header; `properties` is nil when librabbitmq did not decode them.
    case header(channel: UInt16, properties: AMQPProperties?, headersTruncated: Bool, bodySize: Int)
    case body(channel: UInt16, UnsafeRawBufferPointer)
    case other(channel: UInt16)

    var channel: UInt16 {
        switch self {
        case .method(let channel, _, _), .header(let channel, _, _, _), .body(let channel, _), .other(let channel): channel
        }
    }
}

/// The methods the driver acts on; every other one can only be the reply to a synchronous request.
enum AMQPInboundMethod {
    case deliver(deliveryTag: UInt64, redelivered: Bool, exchange: String, routingKey: String)
    case getOK(deliveryTag: UInt64, redelivered: Bool, exchange: String, routingKey: String, remaining: UInt32)
    case getEmpty
    case returned(replyCode: Int, replyText: String, exchange: String, routingKey: String)
    case ack(deliveryTag: UInt64, multiple: Bool)
    case nack(deliveryTag: UInt64, multiple: Bool)
    case cancel
    case channelClose(replyCode: Int, replyText: String)
    case connectionClose(replyCode: Int, replyText: String)
    case blocked(reason: String)
    case unblocked
    case reply(AMQPConnectionDriver.RPCResult)

    /// What a synchronous request waiting for this method gets.
    var rpcResult: AMQPConnectionDriver.RPCResult {
        if case .reply(let result) = self { return result }
        return .ok
    }
}
