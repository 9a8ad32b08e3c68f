internal import CRabbitMQ

/// librabbitmq's status codes and RPC replies become an ``AMQPError`` here, once.
extension AMQPError {
    /// Throws unless `status` is `AMQP_STATUS_OK`: a failed send leaves the connection unusable.
    static func check(_ status: Int32, doing action: String) throws(AMQPError) {
        guard status != AMQP_STATUS_OK.rawValue else { return }
        throw AMQPError(code: .connectionLost, message: "could not \(action): \(AMQPWire.statusText(status))")
    }

    static func check(_ reply: amqp_rpc_reply_t, doing action: String, failureCode: AMQPError.Code) throws(AMQPError) {
        switch reply.reply_type {
        case AMQP_RESPONSE_NORMAL:
            return
        case AMQP_RESPONSE_SERVER_EXCEPTION where reply.reply.id == AMQPMethod.connectionClose:
            let close = reply.reply.decoded.assumingMemoryBound(to: amqp_connection_close_t.self).pointee
            throw AMQPError(
                code: failureCode, message: "could not \(action): \(AMQPCDecoding.string(close.reply_text))",
                replyCode: Int(close.reply_code))
        case AMQP_RESPONSE_LIBRARY_EXCEPTION:
            throw AMQPError(code: .connectionFailed, message: "could not \(action): \(AMQPWire.statusText(reply.library_error))")
        default:
            throw AMQPError(code: .connectionFailed, message: "could not \(action): the broker closed the connection")
        }
    }

    /// Why a socket could not be opened to `endpoint`, in words an operator can act on.
    static func openFailed(_ status: Int32, endpoint: AMQPEndpoint) -> AMQPError {
        let text = AMQPWire.statusText(status)
        switch status {
        case AMQP_STATUS_SSL_PEER_VERIFY_FAILED.rawValue:
            return AMQPError(
                code: .tls,
                message: "the certificate of \(endpoint.host):\(endpoint.port) is not signed by a trusted CA (set the CA file): \(text)")
        case AMQP_STATUS_SSL_HOSTNAME_VERIFY_FAILED.rawValue:
            return AMQPError(
                code: .tls,
                message: "the certificate of \(endpoint.host):\(endpoint.port) is not issued for host '\(endpoint.host)': \(text)")
        case AMQP_STATUS_SSL_CONNECTION_FAILED.rawValue, AMQP_STATUS_SSL_ERROR.rawValue:
            return AMQPError(code: .tls, message: "the TLS handshake with \(endpoint.host):\(endpoint.port) failed: \(text)")
        default:
            return AMQPError(code: .connectionFailed, message: "could not connect to \(endpoint.host):\(endpoint.port): \(text)")
        }
    }

    static func propertiesTooLarge(_ properties: AMQPProperties) -> AMQPError {
        AMQPError(code: .protocolError, message: "its properties (\(properties.encodedByteCount) bytes) do not fit in one frame")
    }

    /// Whether the connection can no longer be trusted after this error, so the driver must recover it.
    var endsTheConnection: Bool { code == .connectionLost || code == .timeout }
}
