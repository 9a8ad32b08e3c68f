/// What PlaceOrder's rules before payment decide about a claimed command, in the contract's order.
///
/// Pure, so that a store that reads the cart and its products with the claim can run them there, and
/// write the charge's request in the claim's own write (``PlaceOrderStore``), with the same answer the
/// use case then acts on.
enum PlaceOrderCheck: Sendable {
    /// Every rule passed: `total` is to be charged for the repriced `lines`.
    case charge(lines: [CartLine], total: Money)
    /// A rule failed, and nothing is to be charged.
    case reject(PlaceOrderRejection)

    /// Every rule, on the stored cart and the catalog's products of its lines.
    static func of(_ command: ValidPlaceOrderRequest, cart: Cart, products: [SKU: Product]) -> PlaceOrderCheck {
        if let rejection = cartRejection(of: command, cart: cart) {
            return .reject(rejection)
        }
        return pricing(of: command, cart: cart, products: products)
    }

    /// The rules that read the cart alone: that it is the customer's, not checked out, not empty and
    /// at `cartVersion`.
    private static func cartRejection(of command: ValidPlaceOrderRequest, cart: Cart) -> PlaceOrderRejection? {
        guard cart.customerID == command.customerID else {
            return command.rejection(.forbidden, "cart \(command.cartID) belongs to another customer")
        }
        guard !cart.isCheckedOut else {
            return command.rejection(.cartCheckedOut, "an order was already placed from cart \(command.cartID)")
        }
        guard !cart.lines.isEmpty else {
            return command.rejection(.cartEmpty, "cart \(command.cartID) has no lines")
        }
        guard cart.version == command.cartVersion else {
            return command.rejection(.cartChanged, "cart \(command.cartID) is at version \(cart.version), not \(command.cartVersion)")
        }
        return nil
    }

    /// The rules that need today's products, for a cart that passed ``cartRejection(of:cart:)``: that
    /// the repriced total is `expectedTotal`, and that every line is on sale and in stock.
    private static func pricing(of command: ValidPlaceOrderRequest, cart: Cart, products: [SKU: Product]) -> PlaceOrderCheck {
        let lines: [CartLine]
        let total: Money
        do {
            lines = try reprice(cart.lines, with: products)
            total = try CartLine.total(of: lines, in: cart.currency)
        } catch {
            return .reject(command.rejection(.invalidRequest, "invalid request: the order's total cannot be computed (\(error))"))
        }
        guard total == command.expectedTotal else {
            return .reject(command.rejection(.priceChanged, "the total is now \(total), not \(command.expectedTotal)", newTotal: total))
        }
        let unavailable = lines.filter { line in
            guard let product = products[line.sku], product.price.currency == cart.currency else { return true }
            return !product.isActive || product.stock < line.quantity
        }
        guard unavailable.isEmpty else {
            let skus = unavailable.map(\.sku)
            return .reject(command.rejection(.outOfStock, "not in stock: \(skus.map(\.rawValue).joined(separator: ", "))", skus: skus))
        }
        return .charge(lines: lines, total: total)
    }

    /// Today's price for every line whose product is still sold in the cart's currency; the others
    /// keep their price, and the stock check rejects them.
    private static func reprice(_ lines: [CartLine], with products: [SKU: Product]) throws(MoneyError) -> [CartLine] {
        var repriced: [CartLine] = []
        for line in lines {
            guard let product = products[line.sku], product.price.currency == line.unitPrice.currency else {
                repriced.append(line)
                continue
            }
            repriced.append(try CartLine(sku: line.sku, quantity: line.quantity, unitPrice: product.price))
        }
        return repriced
    }
}
