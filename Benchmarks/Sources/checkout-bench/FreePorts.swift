import Foundation

/// Ports no process listens on, for the workers' `/metrics`: the bench reads each worker's counters
/// there, and a port of 0 would leave it to find out which one the worker bound.
enum FreePorts {
    /// `count` distinct ports: each socket is held until all are bound, so that the kernel cannot hand
    /// out one port twice. A process may still take one between this call and the worker's bind.
    static func pick(_ count: Int) throws -> [Int] {
        var sockets: [Int32] = []
        defer { for socket in sockets { close(socket) } }
        for _ in 0..<count {
            #if canImport(Glibc)
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
            let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
            #endif
            guard socket >= 0 else { throw BenchmarkError(message: "cannot open a socket to find a free port: errno \(errno)") }
            sockets.append(socket)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = 0
            address.sin_addr = in_addr(s_addr: INADDR_ANY)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { throw BenchmarkError(message: "cannot bind a socket to find a free port: errno \(errno)") }
        }
        return try sockets.map { socket in
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let named = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
            }
            guard named == 0 else { throw BenchmarkError(message: "cannot read the port a socket was bound to: errno \(errno)") }
            return Int(UInt16(bigEndian: address.sin_port))
        }
    }
}
