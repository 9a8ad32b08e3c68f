import NIOCore
import Synchronization

/// The channels open through a ``TCPProxy``, whether it is cut, and what the cuts did: connections
/// closed by a cut and connections refused while cut, so that a test can confirm an outage happened.
final class TCPProxyConnections: Sendable {
    private struct State {
        var isCut = false
        var open: [ObjectIdentifier: any Channel] = [:]
        var refused = 0
        var closedByCuts = 0
    }

    private let state = Mutex(State())

    /// Tracks the channel until it closes; false (and not tracked, and counted as refused) while the proxy is cut.
    func admit(_ channel: any Channel) -> Bool {
        let key = ObjectIdentifier(channel)
        let admitted = state.withLock { state in
            guard !state.isCut else {
                state.refused += 1
                return false
            }
            state.open[key] = channel
            return true
        }
        if admitted {
            channel.closeFuture.whenComplete { [self] _ in
                state.withLock { _ = $0.open.removeValue(forKey: key) }
            }
        }
        return admitted
    }

    /// Closes every open channel and refuses new ones; returns how many it closed.
    @discardableResult
    func cut() -> Int {
        let open = state.withLock { state in
            state.isCut = true
            state.closedByCuts += state.open.count
            return Array(state.open.values)
        }
        for channel in open { channel.close(promise: nil) }
        return open.count
    }

    func restore() {
        state.withLock { $0.isCut = false }
    }

    /// Connections (either side) refused while cut, since the proxy started.
    var refused: Int { state.withLock { $0.refused } }
}
