import NIOCore
import Synchronization

/// The open connections of a ``FakeStripeServer``, so that shutting it down closes them too.
final class FakeStripeConnections: Sendable {
    private let channels = Mutex<[ObjectIdentifier: any Channel]>([:])

    /// Keeps `channel` until it closes.
    func track(_ channel: any Channel) {
        channels.withLock { $0[ObjectIdentifier(channel)] = channel }
        channel.closeFuture.whenComplete { [self] _ in
            _ = channels.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
        }
    }

    func closeAll() async {
        for channel in channels.withLock({ Array($0.values) }) {
            try? await channel.close()
        }
    }
}
