/// `application/x-www-form-urlencoded` text, the way Stripe takes parameters in bodies and queries.
enum StripeForm {
    static func encode(_ fields: KeyValuePairs<String, String>) -> String {
        fields.map { "\(escape($0.key))=\(escape($0.value))" }.joined(separator: "&")
    }

    /// Percent-encodes everything but the unreserved characters of RFC 3986.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                escaped += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return escaped
    }
}
