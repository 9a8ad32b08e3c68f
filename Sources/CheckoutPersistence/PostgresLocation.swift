import Foundation

/// Where a PostgreSQL database is and how to log in, read from `postgres://user:pass@host:port/db?options`.
///
/// Options: `sslmode` (`disable`, the default, `prefer` or `require`) and `schema`, the `search_path`
/// every connection uses, so that several stores (tests, tenants) can share one database.
struct PostgresLocation: Equatable {
    enum TLSMode: String, Equatable {
        case disable, prefer, require
    }

    var host: String
    var port: Int
    var username: String
    var password: String?
    var database: String
    var tls: TLSMode
    var schema: String?

    init(_ url: String) throws(DatabaseURLError) {
        guard let components = URLComponents(string: url), var host = components.host, !host.isEmpty else {
            throw DatabaseURLError(code: .malformed, reason: "names no PostgreSQL host")
        }
        // An IPv6 address is written in brackets, which are not part of it.
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.hasPrefix("/") else {
            throw DatabaseURLError(
                code: .malformed, reason: "names a Unix socket directory as its host, which the worker cannot connect to; give a TCP host")
        }
        guard let username = components.user, !username.isEmpty else {
            throw DatabaseURLError(code: .malformed, reason: "names no PostgreSQL user")
        }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty else {
            throw DatabaseURLError(code: .malformed, reason: "names no PostgreSQL database")
        }
        // URLComponents reads a port past 65535 as given, and one too long for an Int as none (then 5432).
        if let string = components.string, let written = components.rangeOfPort.map({ string[$0] }) {
            guard let port = Int(written), (1...65535).contains(port) else {
                throw DatabaseURLError(code: .malformed, reason: "has a PostgreSQL port that is not a number from 1 to 65535")
            }
        }
        // PostgreSQL truncates names to 63 bytes; a login much longer does not fit its start-up packet, and
        // the worker would wait for a server that drops it at every attempt.
        guard username.utf8.count <= 63, database.utf8.count <= 63 else {
            throw DatabaseURLError(code: .malformed, reason: "names a PostgreSQL user or database over 63 bytes")
        }
        self.host = host
        port = components.port ?? 5432
        self.username = username
        password = components.password
        self.database = database
        tls = .disable
        schema = nil
        for item in components.queryItems ?? [] {
            switch (item.name, item.value) {
            case ("sslmode", let value?):
                guard let mode = TLSMode(rawValue: value) else {
                    throw DatabaseURLError(code: .malformed, reason: "has sslmode '\(value.prefix(20))', not disable, prefer or require")
                }
                tls = mode
            case ("schema", let value?) where !value.isEmpty:
                schema = value
            default:
                throw DatabaseURLError(
                    code: .malformed, reason: "has the unknown option '\(item.name.prefix(20))' (known: sslmode, schema)")
            }
        }
    }
}
