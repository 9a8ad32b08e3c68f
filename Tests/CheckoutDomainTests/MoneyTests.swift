import CheckoutDomain
import CheckoutTestSupport
import Testing

@Suite struct MoneyTests {
    @Test func addsAmountsOfTheSameCurrency() throws {
        #expect(try eur(2999).adding(eur(1)) == eur(3000))
    }

    @Test func multipliesByAQuantity() throws {
        #expect(try eur(2999).multiplied(by: 2) == eur(5998))
    }

    @Test func reportsOverflowOfAdditionInsteadOfTrapping() {
        #expect {
            try eur(.max).adding(eur(1))
        } throws: { error in
            (error as? MoneyError)?.code == .overflow
        }
    }

    @Test func reportsOverflowOfMultiplicationInsteadOfTrapping() {
        #expect {
            try eur(.max / 2 + 1).multiplied(by: 2)
        } throws: { error in
            (error as? MoneyError)?.code == .overflow
        }
    }

    @Test func refusesToAddDifferentCurrencies() {
        let dollars = Money(minorUnits: 1, currency: currency("USD"))
        #expect {
            try eur(1).adding(dollars)
        } throws: { error in
            (error as? MoneyError)?.code == .currencyMismatch
        }
    }

    @Test func lineTotalOverflowIsFoundWhenTheLineIsMade() {
        #expect(throws: MoneyError.self) {
            try CartLine(sku: sku("SKU-1"), quantity: 99, unitPrice: eur(.max / 50))
        }
    }

    @Test func describesItselfAsMinorUnitsAndCode() {
        #expect(eur(5998).description == "5998 EUR")
    }
}
