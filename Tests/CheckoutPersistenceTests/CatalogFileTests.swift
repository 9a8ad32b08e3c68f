import CheckoutDomain
import CheckoutPersistence
import Foundation
import Testing

@Suite struct CatalogFileTests {
    @Test func decodesEveryRowAsAProductPricedInMinorUnits() throws {
        let products = try CatalogFile.decode(
            Data(
                """
                [{"sku": "SKU-RED-M", "name": "T-shirt", "unitPrice": 1999, "currency": "EUR", "stock": 3, "active": true},
                 {"sku": "SKU-OLD", "name": "Old", "unitPrice": 0, "currency": "EUR", "stock": 0, "active": false}]
                """.utf8))

        #expect(
            products == [
                Product(
                    sku: try SKU("SKU-RED-M"), name: "T-shirt", price: Money(minorUnits: 1999, currency: try CurrencyCode("EUR")), stock: 3,
                    isActive: true),
                Product(
                    sku: try SKU("SKU-OLD"), name: "Old", price: Money(minorUnits: 0, currency: try CurrencyCode("EUR")), stock: 0,
                    isActive: false),
            ])
    }

    @Test(arguments: [
        (#"{"name": "T", "unitPrice": 1, "currency": "EUR", "stock": 1, "active": true}"#, "sku is missing"),
        (#"{"sku": "A", "name": "T", "unitPrice": "1", "currency": "EUR", "stock": 1, "active": true}"#, "unitPrice must be a number"),
        (
            #"{"sku": "A", "name": "T", "unitPrice": 1.5, "currency": "EUR", "stock": 1, "active": true}"#,
            "unitPrice must be a whole number"
        ),
        (#"{"sku": "A", "name": "T", "unitPrice": 1, "currency": "EUR", "stock": -1, "active": true}"#, "stock must be 0 or more"),
        (#"{"sku": "A", "name": "T", "unitPrice": -1, "currency": "EUR", "stock": 1, "active": true}"#, "unitPrice must be 0 or more"),
        (#"{"sku": "A", "name": "T", "unitPrice": 1, "currency": "eur", "stock": 1, "active": true}"#, "currency must be an ISO 4217 code"),
        (#"{"sku": "A B", "name": "T", "unitPrice": 1, "currency": "EUR", "stock": 1, "active": true}"#, "sku must be 1–64 characters"),
        (#"{"sku": "A", "name": " ", "unitPrice": 1, "currency": "EUR", "stock": 1, "active": true}"#, "name is empty"),
        (#"{"sku": "A", "name": "T", "unitPrice": 1, "currency": "EUR", "stock": 1, "active": "yes"}"#, "active must be true or false"),
        (
            #"{"sku": "SKU-RED-M", "name": "T", "unitPrice": 1, "currency": "EUR", "stock": 1, "active": true}"#,
            "sku SKU-RED-M is already at row 0"
        ),
        (#"42"#, "the row must be an object"),
    ])
    func rejectsABadRowNamingItsIndexAndWhatIsWrong(row: String, reason: String) throws {
        let file = """
            [{"sku": "SKU-RED-M", "name": "T-shirt", "unitPrice": 1999, "currency": "EUR", "stock": 3, "active": true}, \(row)]
            """

        let error = #expect(throws: CatalogFileError.self) { try CatalogFile.decode(Data(file.utf8)) }

        #expect(error?.code == .invalidRow)
        #expect(error?.index == 1)
        #expect(error?.description.contains("row 1: \(reason)") == true, "\(String(describing: error))")
    }

    @Test func rejectsAFileThatIsNotAnArray() {
        let error = #expect(throws: CatalogFileError.self) { try CatalogFile.decode(Data(#"{"sku": "A"}"#.utf8)) }

        #expect(error?.code == .notAnArray)
        #expect(error?.index == nil)
    }

    @Test func theDemoCatalogDecodes() throws {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("demo-catalog.json")

        let products = try CatalogFile.decode(Data(contentsOf: url))

        let skus = Set(products.map(\.sku.rawValue))
        #expect((10...20).contains(products.count))
        #expect(skus.isSuperset(of: ["SKU-RED-M", "SKU-BLUE-L"]))
        #expect(products.contains { !$0.isActive })
        #expect(products.contains { $0.stock == 1 && $0.isActive })
        #expect(products.allSatisfy { $0.price.currency.rawValue == "EUR" })
    }
}
