import CheckoutDomain
import CheckoutTestSupport
import Foundation
import Testing

@Suite struct IdentifierTests {
    @Test(arguments: ["a", "cart-42", "A.b_c:d-9", String(repeating: "x", count: 64)])
    func acceptsOneTo64AllowedCharacters(value: String) throws {
        #expect(try CartID(value).rawValue == value)
    }

    @Test(arguments: ["", String(repeating: "x", count: 65), "cart 42", "cart/42", "café", "cart\n"])
    func rejectsEmptyLongOrOtherCharacters(value: String) {
        #expect {
            try SKU(value)
        } throws: { error in
            (error as? ValidationError)?.code == .invalidIdentifier
        }
    }

    @Test func namesTheLengthWithoutEchoingTheValue() {
        let value = String(repeating: "secret", count: 20)
        let error = #expect(throws: ValidationError.self) { try CustomerID(value) }
        #expect(error?.reason.contains("(has 120)") == true)
        #expect(error?.description.contains("secret") == false)
    }

    @Test func encodesAsABareString() throws {
        let data = try JSONEncoder().encode([try CommandID("cmd-1")])
        #expect(String(decoding: data, as: UTF8.self) == #"["cmd-1"]"#)
    }

    @Test func decodingChecksTheRuleAgain() {
        #expect(throws: ValidationError.self) {
            try JSONDecoder().decode([CartID].self, from: Data(#"["not valid"]"#.utf8))
        }
    }

    @Test(arguments: ["urn:uuid:6f1c2a7e-0b7d-4a7e-9d7c-1a2b3c4d5e6f", "{6F1C2A7E}", String(repeating: "x", count: 200)])
    func commandIDAcceptsAnyPrintableASCIIUpTo200(value: String) throws {
        #expect(try CommandID(value).rawValue == value)
        #expect(try OrderID(value).rawValue == value)
    }

    @Test(arguments: ["", String(repeating: "x", count: 201), "cmd 1", "cmd\t1", "cmd-é"])
    func commandIDRejectsEmptyLongSpacesAndNonASCII(value: String) {
        #expect {
            try CommandID(value)
        } throws: { error in
            (error as? ValidationError)?.code == .invalidIdentifier
        }
    }

    @Test func orderIDIsTheIDOfTheCommandThatPlacedIt() {
        #expect(OrderID(placedBy: commandID("cmd-9")).rawValue == "cmd-9")
    }

    @Test func acceptsThreeUppercaseLettersAsCurrencyCode() throws {
        #expect(try CurrencyCode("EUR").rawValue == "EUR")
    }

    @Test(arguments: ["eur", "EURO", "EU", "E1R", "", "ÉUR"])
    func rejectsOtherCurrencyCodes(code: String) {
        #expect {
            try CurrencyCode(code)
        } throws: { error in
            (error as? ValidationError)?.code == .invalidCurrencyCode
        }
    }

    @Test func paymentTokenNeverDescribesItself() {
        #expect(!PaymentToken("tok_visa").description.contains("tok_visa"))
    }
}
