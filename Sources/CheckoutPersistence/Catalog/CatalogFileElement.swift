/// One element of the catalog array, decoded on its own so that a bad row is found by its index
/// instead of failing the whole array with a coding path.
struct CatalogFileElement: Decodable {
    let row: Result<CatalogFileRow, any Error>

    init(from decoder: any Decoder) {
        row = Result { try CatalogFileRow(from: decoder) }
    }
}
