import CheckoutDomain
import JSONReading

extension StoredJSON {
    /// Cart lines as ``text(_:)`` stores them (their `Codable` form), read without `JSONDecoder`: every
    /// PlaceOrder reads its cart on SQLite's one writer, where decoding five lines through `Codable`
    /// took about a tenth of its time. Reads what `JSONDecoder` reads of stored lines; a line whose
    /// `lineTotal` is not `unitPrice × quantity` is refused rather than believed.
    static func cartLines(_ text: String) throws -> [CartLine] {
        guard case .array(let elements) = try JSONParser.parse(Array(text.utf8)) else {
            throw mismatch("cart lines are not an array")
        }
        return try elements.map { element in
            let line = try StoredObject(element, "a cart line")
            let read = try CartLine(
                sku: SKU(line.string("sku")), quantity: line.integer("quantity"), unitPrice: money(line.value("unitPrice")))
            guard try read.lineTotal == money(line.value("lineTotal")) else {
                throw mismatch("the line of \(read.sku) totals \(read.lineTotal), not its stored lineTotal")
            }
            return read
        }
    }

    private static func money(_ value: JSONValue) throws -> Money {
        let money = try StoredObject(value, "an amount")
        return Money(minorUnits: try money.integer("minorUnits"), currency: try CurrencyCode(money.string("currency")))
    }

    private static func mismatch(_ description: String) -> DecodingError {
        DecodingError.dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: description))
    }

    /// One JSON object of stored text, its fields read as the `Codable` form has them.
    private struct StoredObject {
        let fields: [String: JSONValue]
        let name: String

        init(_ value: JSONValue, _ name: String) throws {
            guard case .object(let fields) = value else { throw mismatch("\(name) is not an object") }
            self.fields = fields
            self.name = name
        }

        func value(_ key: String) throws -> JSONValue {
            guard let value = fields[key] else { throw mismatch("\(name) has no \(key)") }
            return value
        }

        func string(_ key: String) throws -> String {
            guard case .string(let string) = try value(key) else { throw mismatch("\(key) of \(name) is not a string") }
            return string
        }

        func integer<Integer: FixedWidthInteger>(_ key: String) throws -> Integer {
            guard case .number(let text) = try value(key), let integer = Integer(text) else {
                throw mismatch("\(key) of \(name) is not an integer in range")
            }
            return integer
        }
    }
}
