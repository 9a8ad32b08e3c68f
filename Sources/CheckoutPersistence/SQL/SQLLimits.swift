/// Bounds the shared SQL keeps to on both engines.
enum SQLLimits {
    /// Values bound in one `IN (…)` list; well under SQLite's 32,766 and PostgreSQL's 65,535 parameters.
    static let bindsPerStatement = 500
}
