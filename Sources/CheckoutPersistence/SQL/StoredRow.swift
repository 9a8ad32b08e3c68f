import CheckoutDomain
import Foundation
import SQLKit

/// A row read back into the domain's types; anything that does not fit is an ``PersistenceError/Code/unreadableRow``.
struct StoredRow {
    private let row: any SQLRow
    private let table: String

    init(_ row: any SQLRow, of table: String) {
        self.row = row
        self.table = table
    }

    func value<Value: Decodable>(_ column: String, as type: Value.Type = Value.self) throws -> Value {
        do {
            return try row.decode(column: column, as: Value.self)
        } catch {
            throw unreadable(column, error)
        }
    }

    func isNull(_ column: String) throws -> Bool {
        do {
            return try row.decodeNil(column: column)
        } catch {
            throw unreadable(column, error)
        }
    }

    func identifier<ID: Identifier>(_ column: String, as type: ID.Type = ID.self) throws -> ID {
        let raw: String = try value(column)
        do {
            return try ID(raw)
        } catch {
            throw unreadable(column, error)
        }
    }

    func currency(_ column: String) throws -> CurrencyCode {
        let raw: String = try value(column)
        do {
            return try CurrencyCode(raw)
        } catch {
            throw unreadable(column, error)
        }
    }

    /// Seconds since 1970, as every date column stores them.
    func date(_ column: String) throws -> Date {
        Date(timeIntervalSince1970: try value(column, as: Double.self))
    }

    func json<Value: Decodable>(_ column: String, as type: Value.Type = Value.self) throws -> Value {
        let text: String = try value(column)
        do {
            return try JSONDecoder().decode(Value.self, from: Data(text.utf8))
        } catch {
            throw unreadable(column, error)
        }
    }

    /// A column of cart lines (``StoredJSON/cartLines(_:)``).
    func cartLines(_ column: String) throws -> [CartLine] {
        let text: String = try value(column)
        do {
            return try StoredJSON.cartLines(text)
        } catch {
            throw unreadable(column, error)
        }
    }

    private func unreadable(_ column: String, _ error: any Error) -> PersistenceError {
        PersistenceError(code: .unreadableRow, context: "reading \(table).\(column)", underlying: error)
    }
}
