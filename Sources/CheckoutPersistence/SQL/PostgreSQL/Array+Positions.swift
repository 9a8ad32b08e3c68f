extension [StoredRow] {
    /// The rows of a batch's statement by the request each answers: its `position` column, from 1 to
    /// `count`, as `WITH ORDINALITY` numbers the elements of the statement's arrays.
    func byPosition(count: Int, reading context: String) throws -> [[StoredRow]] {
        var rowsOfRequest = [[StoredRow]](repeating: [], count: count)
        for row in self {
            let position: Int = try row.value("position")
            guard rowsOfRequest.indices.contains(position - 1) else {
                throw PersistenceError(code: .unreadableRow, context: "\(context): a row of position \(position) of \(count)")
            }
            rowsOfRequest[position - 1].append(row)
        }
        return rowsOfRequest
    }
}
