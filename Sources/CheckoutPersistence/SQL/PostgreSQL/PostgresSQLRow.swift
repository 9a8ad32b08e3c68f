import PostgresKit
import PostgresNIO
import SQLKit

/// SQLKit's view of a row from PostgreSQL, as PostgresKit's (`PostgresRow.sql()`) but with the scalars
/// the worker's reads are made of decoded by postgres-nio directly (``PostgresCellDecoder``).
/// PostgresKit decodes every value through `Decodable`, with dynamic casts and a coding path spelled
/// from the column's name and index, which took more than twice the CPU.
struct PostgresSQLRow: SQLRow {
    private let row: PostgresRow
    private let cells: PostgresRandomAccessRow

    init(_ row: PostgresRow) {
        self.row = row
        cells = row.makeRandomAccess()
    }

    var allColumns: [String] { cells.map(\.columnName) }

    func contains(column: String) -> Bool {
        cells.contains(column)
    }

    func decodeNil(column: String) throws -> Bool {
        !cells.contains(column) || cells[column].bytes == nil
    }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        guard cells.contains(column) else {
            throw DecodingError.keyNotFound(
                ColumnCodingKey(column), .init(codingPath: [], debugDescription: "no column \(column) in \(allColumns)"))
        }
        do {
            return try D(from: PostgresCellDecoder(cell: cells[column]))
        } catch is PostgresCellDecoder.NotAScalar {
            return try row.sql().decode(column: column, as: D.self)
        }
    }
}
