import NIOCore
import Synchronization

/// The open connections of a ``FakeStripeServer``, so that shutting it down closes them too, and the
/// most that were open at once.
final class FakeStripeConnections: Sendable {
    private let channels = Mutex<(open: [ObjectIdentifier: any Channel], most: Int)>(([:], 0))

    /// The most connections that were open at once so far.
    var mostAtOnce: Int { channels.withLock { $0.most } }

    /// Keeps `channel` until it closes.
    func track(_ channel: any Channel) {
        channels.withLock {
            $0.open[ObjectIdentifier(channel)] = channel
            $0.most = max($0.most, $0.open.count)
        }
        channel.closeFuture.whenComplete { [self] _ in
            _ = channels.withLock { $0.open.removeValue(forKey: ObjectIdentifier(channel)) }
        }
    }

    func closeAll() async {
        for channel in channels.withLock({ Array($0.open.values) }) {
            try? await channel.close()
        }
    }
}
