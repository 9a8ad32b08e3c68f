#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Frames gathered on the driver's thread and written to the broker's socket together.
///
/// librabbitmq sends each frame of a publish with its own `send`: three system calls a message here,
/// and as many segments for the broker to read. The driver encodes the publishes of one pass over its
/// commands into this buffer and writes them with one call. Plain bytes only: the driver owns every
/// librabbitmq call, including the encoding.
struct AMQPWriteBuffer {
    /// Above this, the storage is given back after a write, so that one large message does not stay resident.
    private static let retainedCapacity = 1 << 20

    private var storage: [UInt8] = []
    private var count = 0

    var isEmpty: Bool { count == 0 }

    /// Lets `encode` write at most `limit` bytes at the end of the buffer. It returns how many it wrote,
    /// or a negative status, which leaves the buffer as it was; that value is returned.
    mutating func append(atMost limit: Int, _ encode: (UnsafeMutablePointer<UInt8>) -> Int) -> Int {
        if storage.count < count + limit {
            storage.append(contentsOf: repeatElement(0, count: max(count + limit, 2 * storage.count) - storage.count))
        }
        let written = storage.withUnsafeMutableBufferPointer { encode($0.baseAddress! + count) }
        if written > 0 { count += written }
        return written
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
