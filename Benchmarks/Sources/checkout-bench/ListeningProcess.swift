import Foundation

/// The process on this host that listens on a TCP port, found through `/proc`: the socket's inode in
/// `/proc/net/tcp` and `tcp6`, then the process holding a descriptor of it. The bench uses it to read
/// the broker's CPU; reading another user's descriptors takes root, so elsewhere it finds nothing.
enum ListeningProcess {
    static func pid(port: Int) -> Int32? {
        let tables = ["/proc/net/tcp", "/proc/net/tcp6"].compactMap { try? String(contentsOfFile: $0, encoding: .utf8) }
        guard let inode = tables.lazy.compactMap({ listeningInode(port: port, in: $0) }).first else { return nil }
        let target = "socket:[\(inode)]"
        let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(Int32.init)
        for pid in pids {
            let descriptors = "/proc/\(pid)/fd"
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: descriptors) else { continue }
            for entry in entries where (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(descriptors)/\(entry)")) == target {
                return pid
            }
        }
        return nil
    }

    /// The inode of the socket listening on `port` in a `/proc/net/tcp` table: the line whose local
    /// address ends in the port in hexadecimal and whose state is `0A` (LISTEN); its tenth field.
    static func listeningInode(port: Int, in table: String) -> UInt64? {
        for line in table.split(whereSeparator: \.isNewline).dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 9, fields[3] == "0A", let colon = fields[1].lastIndex(of: ":"),
                Int(fields[1][fields[1].index(after: colon)...], radix: 16) == port
            else { continue }
            return UInt64(fields[9])
        }
        return nil
    }
}
