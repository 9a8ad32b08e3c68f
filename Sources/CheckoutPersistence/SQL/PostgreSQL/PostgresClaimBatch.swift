import CheckoutDomain
import SQLKit

/// The two statements of a batch of claims on PostgreSQL: every cart with its products in one read,
/// then every claim in one statement, one call of `checkout_take_claim` per command
/// (``Migrations/earlierChargesKept``), and so one commit. Each claim's parameters travel as the `n`th
/// element of arrays, and its rows come back with its position. The first array of each goes through
/// `checkout_batch`, so that PostgreSQL plans each statement once (``Migrations/batchPlansKept``). A
/// single claim runs the same two statements, for one.
enum PostgresClaimBatch {
    /// One claim as `checkout_take_claim` takes it; `charge` is ``ChargeRecord``'s stored JSON.
    struct Claim {
        let request: SQLClaimRequest
        let charge: String?
    }

    /// Takes the claims of `requests`, all with a cart: every cart with its products in one read, what
    /// each request's `chargeRequest` answers for them, then every claim in one statement, in the order
    /// of the command ids, so that batches sharing a command (a duplicate delivered to two workers)
    /// lock its row in one order. Answers in order the read of each claim taken, with its charge;
    /// nil for a claim not taken. The statement took every claim it could, so a claim whose stored
    /// charge cannot be read fails alone.
    static func take(
        _ requests: [SQLClaimRequest], kind: String, owner: String, on database: any SQLDatabase
    ) async throws -> [Result<SQLCartRead, any Error>?] {
        let cartIDs = requests.compactMap(\.cartID)
        guard cartIDs.count == requests.count else {
            throw PersistenceError(code: .databaseFailure, context: "a claim without a cart in a batch of claims")
        }
        let reads = try await carts(cartIDs, on: database)
        let charges = zip(requests, reads).map { request, read in request.charge(for: read) }
        let claims = try zip(requests, charges).map { request, charge in
            Claim(request: request, charge: try charge.map(StoredJSON.text))
        }
        let order = requests.indices.sorted { requests[$0].commandID < requests[$1].commandID }
        let rows = try await claim(order.map { claims[$0] }, kind: kind, owner: owner, on: database)
        var taken = [Result<SQLCartRead, any Error>?](repeating: nil, count: requests.count)
        for (index, row) in zip(order, rows) {
            guard let row else { continue }
            taken[index] = Result { try reads[index].claimed(offering: charges[index], as: claims[index].charge, leaving: row) }
        }
        return taken
    }

    /// Each cart with its products by the cart's `skus`, in order: no cart where none is stored, and
    /// nil products for a cart without `skus` (``Migrations/cartSKUs``), whose products are read apart.
    static func carts(_ ids: [CartID], on database: any SQLDatabase) async throws -> [SQLCartRead] {
        let rows = try await database.raw(
            """
            SELECT request.position, \(unsafeRaw: SQLCarts.columns), carts.skus AS cart_skus, \(unsafeRaw: SQLCatalog.columns)
            FROM unnest(checkout_batch(\(bind: ids.map(\.rawValue))::text[])) WITH ORDINALITY AS request(cart_id, position)
            LEFT JOIN carts ON carts.id = request.cart_id
            LEFT JOIN products ON products.sku = ANY (string_to_array(carts.skus, ' '))
            """
        ).all().map { StoredRow($0, of: "carts and products") }
        return try rows.byPosition(count: ids.count, reading: "reading \(ids.count) carts").map(read(from:))
    }

    /// Takes each claim as `checkout_take_claim` does, one after another in the order given: for each
    /// claim taken, a row whose `charge` is the command's charge after it (`''` for none); nil for one not taken.
    static func claim(_ claims: [Claim], kind: String, owner: String, on database: any SQLDatabase) async throws -> [StoredRow?] {
        let requests = claims.map(\.request)
        let rows = try await database.raw(
            """
            SELECT request.position, checkout_take_claim(
                \(bind: kind), request.command_id, request.lease_until, NULLIF(request.digest, ''), \(bind: owner),
                NULLIF(request.charge, ''), request.is_only_attempt, request.now) AS charge
            FROM unnest(checkout_batch(\(bind: requests.map(\.commandID.rawValue))::text[]), \(bind: requests.map(\.leaseUntil.timeIntervalSince1970))::float8[],
                        \(bind: requests.map { $0.digest?.rawValue ?? "" })::text[], \(bind: claims.map { $0.charge ?? "" })::text[],
                        \(bind: requests.map(\.isOnlyAttempt))::bool[], \(bind: requests.map(\.now.timeIntervalSince1970))::float8[])
                 WITH ORDINALITY AS request(command_id, lease_until, digest, charge, is_only_attempt, now, position)
            """
        ).all().map { StoredRow($0, of: "checkout_take_claim") }
        return try rows.byPosition(count: claims.count, reading: "claiming \(claims.count) commands").map { rows in
            guard rows.count == 1 else {
                throw PersistenceError(code: .unreadableRow, context: "checkout_take_claim answered \(rows.count) rows for one claim")
            }
            return try rows[0].isNull("charge") ? nil : rows[0]
        }
    }

    /// The cart and its products in the rows of one position: one row with no cart, or one per product
    /// the cart's `skus` names that the catalog knows (at least one row).
    private static func read(from rows: [StoredRow]) throws -> SQLCartRead {
        guard let first = rows.first, try !first.isNull("cart_id") else { return SQLCartRead(cart: nil, products: nil) }
        let cart = try SQLCarts.cart(from: first)
        guard try !first.isNull("cart_skus") else { return SQLCartRead(cart: cart, products: nil) }
        var products: [SKU: Product] = [:]
        for row in rows where try !row.isNull("sku") {
            let product = try SQLCatalog.product(from: row)
            products[product.sku] = product
        }
        return SQLCartRead(cart: cart, products: products)
    }
}
