internal import CRabbitMQ
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Publish frames gathered on the driver's thread and written to the broker's socket together.
///
/// librabbitmq sends each frame of a publish with its own `send`: three system calls a message here,
/// and as many segments for the broker to read. The driver gathers the publishes of one pass over its
/// commands and writes them with one call. Plain TCP only: librabbitmq keeps its TLS stream to itself.
struct AMQPWriteBuffer {
    /// Above this, the storage is given back after a write, so that one large message does not stay resident.
    private static let retainedCapacity = 1 << 20

    private var storage: [UInt8] = []
    private var count = 0

    var isEmpty: Bool { count == 0 }

    /// Appends the frames of one publish; returns librabbitmq's status (a property table too large for a
    /// frame fails here, as it does in `amqp_basic_publish`).
    mutating func appendPublish(on channel: UInt16, exchange: amqp_bytes_t, routingKey: amqp_bytes_t, mandatory: Bool,
                                properties: inout amqp_basic_properties_t, body: UnsafeRawBufferPointer, frameMax: Int) -> Int32 {
        let limit = crabbitmq_publish_size_limit(body.count, frameMax)
        if storage.count < count + limit {
            storage.append(contentsOf: repeatElement(0, count: max(count + limit, 2 * storage.count) - storage.count))
        }
        let bodyBytes = amqp_bytes_t(len: body.count, bytes: UnsafeMutableRawPointer(mutating: body.baseAddress))
        let written = storage.withUnsafeMutableBufferPointer { buffer in
            crabbitmq_encode_publish(buffer.baseAddress! + count, frameMax, channel, exchange, routingKey,
                                     mandatory ? 1 : 0, &properties, bodyBytes)
        }
        guard written >= 0 else { return Int32(written) }
        count += written
        return AMQP_STATUS_OK.rawValue
    }

    /// Writes everything gathered to the socket, waiting while its send buffer is full (as librabbitmq's
    /// own sends do; the driver's watchdog shuts a socket that stays stuck down, which ends the wait).
    mutating func write(to socket: Int32) throws(AMQPError) {
        var written = 0
        while written < count {
            let result = storage.withUnsafeBytes { send(socket, $0.baseAddress! + written, count - written, Int32(MSG_NOSIGNAL)) }
            if result >= 0 {
                written += result
                continue
            }
            switch errno {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                var descriptor = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
                _ = poll(&descriptor, 1, -1)
            case let code:
                discard()
                throw AMQPError(code: .connectionLost, message: "writing to the broker failed: \(String(cString: strerror(code)))")
            }
        }
        discard()
    }

    /// Forgets what was gathered, after a write or with a connection that is gone.
    mutating func discard() {
        count = 0
        if storage.count > Self.retainedCapacity { storage = [] }
    }
}
