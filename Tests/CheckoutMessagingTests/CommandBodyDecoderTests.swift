import Foundation
import JSONReading
import Testing

@testable import CheckoutMessaging

/// The command bodies as the contract's failure table reads them: what is a command, and which
/// code and field a body that is not one is dead-lettered with.
@Suite struct CommandBodyDecoderTests {
    private let decoder = CommandBodyDecoder()

    @Test func readsASyncCartBodyWithEscapesUnicodeAndExtraFields() throws {
        let body =
            #" { "cartId" : "cart-\u00e9\"1\"", "customerId":"c-😀", "baseVersion": 3, "currency":"EUR", "note": {"a":[1,true,null]},"#
            + #""items":[{"sku":"SKU-1","quantity":2},{"sku":"S\/2","quantity":1e1}] } "#
        let decoded = try decoder.decode(SyncCartBody.self, from: Array(body.utf8))
        #expect(decoded.cartId == "cart-é\"1\"")
        #expect(decoded.customerId == "c-😀")
        #expect(decoded.baseVersion == 3)
        #expect(decoded.currency == "EUR")
        #expect(decoded.items.map(\.sku) == ["SKU-1", "S/2"])
        #expect(decoded.items.map(\.quantity) == [2, 10])
    }

    @Test func readsAPlaceOrderBodyWithItsNestedPayment() throws {
        let body =
            #"{"cartId":"c","customerId":"u","cartVersion":2,"expectedTotal":9007199254740993,"currency":"EUR","payment":{"token":"tok_visa"}}"#
        let decoded = try decoder.decode(PlaceOrderBody.self, from: Array(body.utf8))
        #expect(decoded.expectedTotal == 9_007_199_254_740_993)
        #expect(decoded.paymentToken == "tok_visa")
        #expect(decoded.cartVersion == 2)
    }

    @Test(arguments: [
        ("", "invalid-json", "the body is not JSON"),
        ("{not json", "invalid-json", "the body is not JSON"),
        (#"{"cartId":"a",}"#, "invalid-json", "the body is not JSON"),
        (#"{"cartId":"a"} x"#, "invalid-json", "the body is not JSON"),
        (#"{"cartId":"a\u0001"}"#.replacingOccurrences(of: "\\u0001", with: "\u{01}"), "invalid-json", "the body is not JSON"),
        (#"{"cartId":"\ud800"}"#, "invalid-json", "the body is not JSON"),
        (#"{"cartId":"\x"}"#, "invalid-json", "the body is not JSON"),
        (#"{"baseVersion":01}"#, "invalid-json", "the body is not JSON"),
        (#"{"baseVersion":-}"#, "invalid-json", "the body is not JSON"),
        (#"{"baseVersion":1.}"#, "invalid-json", "the body is not JSON"),
        ("[1,2,3]", "wrong-type", "the body must be an object"),
        (#""text""#, "wrong-type", "the body must be an object"),
        (#"{"customerId":"c","baseVersion":0,"currency":"EUR","items":[]}"#, "missing-field", "cartId is missing"),
        (#"{"cartId":null,"customerId":"c","baseVersion":0,"currency":"EUR","items":[]}"#, "missing-field", "cartId is null"),
        (#"{"cartId":"a","customerId":"c","baseVersion":"0","currency":"EUR","items":[]}"#, "wrong-type", "baseVersion must be an integer"),
        (
            #"{"cartId":"a","customerId":"c","baseVersion":true,"currency":"EUR","items":[]}"#, "wrong-type",
            "baseVersion must be an integer"
        ),
        (
            #"{"cartId":"a","customerId":"c","baseVersion":1.5,"currency":"EUR","items":[]}"#, "wrong-type",
            "baseVersion is not a number in range"
        ),
        (
            #"{"cartId":"a","customerId":"c","baseVersion":1e400,"currency":"EUR","items":[]}"#, "wrong-type",
            "baseVersion is not a number in range"
        ),
        (
            #"{"cartId":"a","customerId":"c","baseVersion":99999999999999999999,"currency":"EUR","items":[]}"#, "wrong-type",
            "baseVersion is not a number in range"
        ),
        (#"{"cartId":7,"customerId":"c","baseVersion":0,"currency":"EUR","items":[]}"#, "wrong-type", "cartId must be a string"),
        (#"{"cartId":"a","customerId":"c","baseVersion":0,"currency":"EUR","items":{}}"#, "wrong-type", "items must be an array"),
        (
            #"{"cartId":"a","customerId":"c","baseVersion":0,"currency":"EUR","items":[{"sku":"s","quantity":1},3]}"#, "wrong-type",
            "items[1] must be an object"
        ),
        (
            #"{"cartId":"a","customerId":"c","baseVersion":0,"currency":"EUR","items":[{"sku":"s","quantity":1},{"sku":"t"}]}"#,
            "missing-field", "items[1].quantity is missing"
        ),
        (
            #"{"cartId":"a","customerId":"c","baseVersion":0,"currency":"EUR","items":[{"sku":"s","quantity":"2"}]}"#, "wrong-type",
            "items[0].quantity must be an integer"
        ),
    ])
    func namesTheCodeAndTheFieldOfABodyThatIsNotASyncCart(body: String, code: String, detail: String) {
        #expect {
            _ = try decoder.decode(SyncCartBody.self, from: Array(body.utf8))
        } throws: { error in
            let malformed = error as? MalformedCommand
            return malformed?.code.description == code && malformed?.detail == detail
        }
    }

    @Test func namesTheNestedFieldOfAPlaceOrder() {
        let body = #"{"cartId":"c","customerId":"u","cartVersion":2,"expectedTotal":100,"currency":"EUR","payment":{"token":5}}"#
        #expect(throws: MalformedCommand(.wrongType, "payment.token must be a string")) {
            _ = try decoder.decode(PlaceOrderBody.self, from: Array(body.utf8))
        }
    }

    @Test func refusesBodiesThatAreNotUTF8OrNestTooDeeply() {
        #expect(throws: MalformedCommand(.invalidEncoding, "the body is not UTF-8")) {
            _ = try decoder.decode(SyncCartBody.self, from: [0x7B, 0xFF, 0xFE, 0x7D])
        }
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: MalformedCommand(.invalidJSON, "the body is not JSON")) {
            _ = try decoder.decode(SyncCartBody.self, from: Array(deep.utf8))
        }
        let allowed =
            String(repeating: "[", count: JSONParser.maximumDepth - 1) + String(repeating: "]", count: JSONParser.maximumDepth - 1)
        #expect(throws: MalformedCommand(.wrongType, "baseVersion must be an integer")) {
            _ = try decoder.decode(
                SyncCartBody.self,
                from: Array(#"{"cartId":"a","customerId":"c","baseVersion":\#(allowed),"currency":"EUR","items":[]}"#.utf8))
        }
    }
}
