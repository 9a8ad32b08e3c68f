import Foundation

/// A parsed `CHECKOUT_DATABASE_URL`: which engine, and where.
enum DatabaseURL: Equatable {
    case memory
    /// A file path, relative to the working directory unless it starts with `/` (`sqlite:///var/lib/x.sqlite`).
    case sqlite(path: String)
    case postgres(PostgresLocation)

    init(_ url: String) throws(DatabaseURLError) {
        guard let separator = url.range(of: "://") else {
            throw DatabaseURLError(code: .malformed, reason: "has no scheme")
        }
        let scheme = url[..<separator.lowerBound].lowercased()
        let rest = String(url[separator.upperBound...])
        switch scheme {
        case "memory":
            self = .memory
        case "sqlite":
            let path = rest.removingPercentEncoding ?? rest
            guard !path.isEmpty else { throw DatabaseURLError(code: .malformed, reason: "names no SQLite file") }
            guard path != ":memory:", !path.lowercased().hasPrefix("file:") else {
                throw DatabaseURLError(
                    code: .malformed,
                    reason:
                        "names SQLite's :memory: or a file: URI, which SQLite may open as a separate database per pooled connection (use memory://, or a path)"
                )
            }
            guard !rest.contains("?"), !rest.contains("#") else {
                throw DatabaseURLError(code: .malformed, reason: "has a query or fragment, which SQLite would make part of the file's name")
            }
            self = .sqlite(path: path)
        case "postgres", "postgresql":
            self = .postgres(try PostgresLocation(url))
        default:
            throw DatabaseURLError(code: .unsupportedScheme, reason: "has the unsupported scheme '\(scheme.prefix(20))'")
        }
    }
}
