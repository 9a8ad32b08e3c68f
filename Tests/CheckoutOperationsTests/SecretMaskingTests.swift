import CheckoutOperations
import Testing

@Suite struct SecretMaskingTests {
    @Test func masksThePasswordOfABrokerURL() {
        #expect(SecretMasking.maskingPasswords(in: "amqp://guest:guest@localhost:5672/%2F") == "amqp://guest:***@localhost:5672/%2F")
        #expect(SecretMasking.maskingPasswords(in: "amqps://app:s3cret@rabbit") == "amqps://app:***@rabbit")
    }

    @Test func masksThePasswordOfADatabaseURLAndOfItsPasswordParameters() {
        #expect(
            SecretMasking.maskingPasswords(in: "postgres://checkout:pa55@db:5432/shop?sslmode=require&password=other#x")
                == "postgres://checkout:***@db:5432/shop?sslmode=require&password=***#x"
        )
    }

    @Test func masksEveryURLOfACommaSeparatedList() {
        #expect(
            SecretMasking.maskingPasswords(in: "amqp://a:one@node1,amqp://b:two@node2:5672/%2F")
                == "amqp://a:***@node1,amqp://b:***@node2:5672/%2F"
        )
    }

    @Test func masksAPasswordThatContainsAnAtSign() {
        #expect(SecretMasking.maskingPasswords(in: "amqp://user:p@ss@host/vhost") == "amqp://user:***@host/vhost")
    }

    /// Written unencoded, `/`, `?` and `#` end no authority in a password: an operator's URL with one
    /// must not be logged, nor shown in the error that refuses it, with the password in it.
    @Test(arguments: [
        ("postgres://app:s3cr#t@db.example/shop", "postgres://app:***@db.example/shop"),
        ("postgres://app:pa/ss@db.example/shop", "postgres://app:***@db.example/shop"),
        ("amqp://user:p?ss@broker:5672/%2F", "amqp://user:***@broker:5672/%2F"),
    ])
    func masksAPasswordHoldingWhatWouldEndTheAuthority(url: String, masked: String) {
        #expect(SecretMasking.maskingPasswords(in: url) == masked)
    }

    @Test(arguments: [
        "amqp://localhost:5672/%2F",
        "amqp://user@host",
        "sqlite://checkout.sqlite",
        "http://host:8080/path?user=me",
        "classic",
        "",
    ])
    func leavesValuesWithoutAPasswordAlone(value: String) {
        #expect(SecretMasking.maskingPasswords(in: value) == value)
    }

    @Test func masksTheWholeValueOfASettingNamedAsSecret() {
        #expect(SecretMasking.masked("sk_live_123", ofSetting: "CHECKOUT_STRIPE_API_KEY") == "***")
        #expect(SecretMasking.masked("hunter2", ofSetting: "checkout_db_password") == "***")
        #expect(SecretMasking.masked("/etc/checkout/client.key", ofSetting: "CHECKOUT_AMQP_KEY_FILE") == "/etc/checkout/client.key")
    }

    @Test func masksASetOfSettingsForTheStartUpLine() {
        let masked = SecretMasking.masked([
            "CHECKOUT_AMQP_URL": "amqp://guest:guest@rabbitmq:5672/%2F",
            "CHECKOUT_DATABASE_URL": "postgres://checkout:checkout@postgres/checkout",
            "CHECKOUT_STRIPE_API_KEY": "sk_test_abc",
            "CHECKOUT_PREFETCH": "50",
        ])

        #expect(
            masked == [
                "CHECKOUT_AMQP_URL": "amqp://guest:***@rabbitmq:5672/%2F",
                "CHECKOUT_DATABASE_URL": "postgres://checkout:***@postgres/checkout",
                "CHECKOUT_STRIPE_API_KEY": "***",
                "CHECKOUT_PREFETCH": "50",
            ])
    }
}
