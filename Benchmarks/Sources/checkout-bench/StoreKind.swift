/// Where the workers of a scenario keep their state (`CHECKOUT_DATABASE_URL`).
enum StoreKind: String, CaseIterable, Sendable {
    case memory
    case sqlite
    case postgres

    var title: String {
        switch self {
        case .memory: "in-memory"
        case .sqlite: "SQLite"
        case .postgres: "PostgreSQL"
        }
    }
}
