import NIOCore
import Synchronization

/// The channels open through a ``TCPProxy``, and whether it is cut.
final class TCPProxyConnections: Sendable {
    private struct State {
        var isCut = false
        var open: [ObjectIdentifier: any Channel] = [:]
    }

    private let state = Mutex(State())

    /// Tracks the channel until it closes; false (and not tracked) while the proxy is cut.
    func admit(_ channel: any Channel) -> Bool {
        let key = ObjectIdentifier(channel)
        let admitted = state.withLock { state in
            guard !state.isCut else { return false }
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

    func cut() {
        let open = state.withLock { state in
            state.isCut = true
            return Array(state.open.values)
        }
        for channel in open { channel.close(promise: nil) }
    }

    func restore() {
        state.withLock { $0.isCut = false }
    }
}
