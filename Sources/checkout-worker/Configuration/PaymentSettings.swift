import ArgumentParser
import CheckoutPayments
import Configuration

/// The payment processor: what only `run` needs.
struct PaymentSettings: SettingGroup {
    static let processor = Setting(
        "checkout.payment.processor", accepts: "sandbox or stripe", help: "sandbox or stripe", default: "sandbox", refusesEmpty: true)
    static let stripeAPIKey = Setting(
        "checkout.stripe.apiKey", accepts: "a Stripe secret key (required with CHECKOUT_PAYMENT_PROCESSOR=stripe)",
        help: "Stripe's secret key", isSecret: true
    )
    static let stripeBaseURL = Setting(
        "checkout.stripe.baseURL", accepts: "an http:// or https:// URL, with a port up to 65535 if any",
        help: "Stripe's base URL; its key is read from CHECKOUT_STRIPE_API_KEY only, never from a flag", default: "https://api.stripe.com"
    )
    static let stripeTimeout = Setting(
        "checkout.stripe.timeout", accepts: "a duration such as 30s or 1500ms: the longest wait for a Stripe answer",
        help: "The longest wait for a Stripe answer before the payment is retried", default: "30s"
    )
    static let stripeSearchLag = Setting(
        "checkout.stripe.searchLag", accepts: "a duration such as 60s: how long Stripe's search may not show a charge yet",
        help: "How long Stripe's search may not show a charge yet; a refund, or a retry's look for a charge, waits that long for it",
        default: "60s"
    )

    @Option(help: ArgumentHelp(PaymentSettings.processor.flagHelp))
    var paymentProcessor: String?
    @Option(help: ArgumentHelp(PaymentSettings.stripeBaseURL.flagHelp))
    var stripeBaseURL: String?
    @Option(help: ArgumentHelp(PaymentSettings.stripeTimeout.flagHelp))
    var stripeTimeout: String?
    @Option(help: ArgumentHelp(PaymentSettings.stripeSearchLag.flagHelp))
    var stripeSearchLag: String?

    var given: [(setting: Setting, flag: String?)] {
        [
            (Self.processor, paymentProcessor), (Self.stripeAPIKey, nil), (Self.stripeBaseURL, stripeBaseURL),
            (Self.stripeTimeout, stripeTimeout), (Self.stripeSearchLag, stripeSearchLag),
        ]
    }

    /// The processor; Stripe's settings are read, and checked, only when it is chosen.
    static func read(_ config: ConfigReader) throws(ConfigurationError) -> WorkerConfiguration.PaymentProcessorChoice {
        switch try config.value(processor, { $0 }) {
        case "sandbox":
            return .sandbox
        case "stripe":
            // Sent as a header: a space or control character in it would fail every charge, not start-up.
            let apiKey = try config.value(stripeAPIKey) { key in
                !key.isEmpty && key.utf8.allSatisfy { (0x21...0x7E).contains($0) } ? key : nil
            }
            let baseURL = try config.value(stripeBaseURL) { $0 }
            let readTimeout = try config.duration(stripeTimeout)
            let searchLag = try config.duration(stripeSearchLag)
            do {
                return .stripe(try StripeConfiguration(apiKey: apiKey, baseURL: baseURL, readTimeout: readTimeout, searchLag: searchLag))
            } catch {
                throw stripeBaseURL.invalid(baseURL)
            }
        case let other:
            throw processor.invalid(other)
        }
    }
}
