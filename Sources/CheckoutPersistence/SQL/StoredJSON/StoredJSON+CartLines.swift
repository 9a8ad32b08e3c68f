import CheckoutDomain
import JSONReading

extension StoredJSON {
    /// Cart lines as ``text(_:)`` stores them (their `Codable` form), read without `JSONDecoder`: every
    /// PlaceOrder reads its cart on SQLite's one writer, where decoding five lines through `Codable`
    /// took about a tenth of its time. Reads what `JSONDecoder` reads, but for a `lineTotal` that is not
    /// `unitPrice × quantity`, which no line of this worker's can have: refused rather than believed.
    static func cartLines(_ text: String) throws -> [CartLine] {
        let json: JSONValue
        do {
            json = try JSONParser.parse(Array(text.utf8))
        } catch {
            throw mismatch("the cart lines are \(error)")
        }
        guard case .array(let elements) = json else { throw mismatch("the cart lines are not an array") }
        return try elements.enumerated().map { index, element in
            let line = try StoredObject(element, "lines[\(index)]")
            let read = try CartLine(
                sku: SKU(line.string("sku")), quantity: line.integer("quantity"), unitPrice: money(line, "unitPrice"))
            let stored = try money(line, "lineTotal")
            guard read.lineTotal == stored else {
                throw mismatch("lines[\(index)] (\(read.sku)) totals \(read.lineTotal), not its stored lineTotal \(stored)")
            }
            return read
        }
    }

    private static func money(_ line: StoredObject, _ key: String) throws -> Money {
        let money = try StoredObject(line.value(key), "\(line.path).\(key)")
        return Money(minorUnits: try money.integer("minorUnits"), currency: try CurrencyCode(money.string("currency")))
    }

    private static func mismatch(_ description: String) -> DecodingError {
        DecodingError.dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: description))
    }

    /// One JSON object of stored text, its fields read as the `Codable` form has them.
    private struct StoredObject {
        let fields: [String: JSONValue]
        /// Where the object is in the lines, such as `lines[1].unitPrice`, for errors.
        let path: String

        init(_ value: JSONValue, _ path: String) throws {
            guard case .object(let fields) = value else { throw mismatch("\(path) is not an object") }
            self.fields = fields
            self.path = path
        }

        func value(_ key: String) throws -> JSONValue {
            guard let value = fields[key] else { throw mismatch("\(path) has no \(key)") }
            return value
        }

        func string(_ key: String) throws -> String {
            guard case .string(let string) = try value(key) else { throw mismatch("\(path).\(key) is not a string") }
            return string
        }

        func integer<Integer: FixedWidthInteger>(_ key: String) throws -> Integer {
            guard let integer = try value(key).exactInteger(as: Integer.self) else {
                throw mismatch("\(path).\(key) is not an integer in range")
            }
            return integer
        }
    }
}
