import SQLKit

/// A row a statement returned, read by column name as SQLKit reads rows.
struct SQLiteRow: SQLRow {
    let columns: [String]
    let values: [SQLiteValue]

    var allColumns: [String] { columns }

    func contains(column: String) -> Bool {
        columns.contains(column)
    }

    func decodeNil(column: String) throws -> Bool {
        try value(column) == .null
    }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        try D(from: SQLiteValueDecoder(value: value(column), column: column))
    }

    private func value(_ column: String) throws -> SQLiteValue {
        guard let index = columns.firstIndex(of: column) else {
            throw DecodingError.keyNotFound(
                ColumnCodingKey(column), .init(codingPath: [], debugDescription: "no column \(column) in \(columns)"))
        }
        return values[index]
    }
}
