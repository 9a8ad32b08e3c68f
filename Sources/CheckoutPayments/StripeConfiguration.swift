public import AsyncHTTPClient
import Foundation
import NIOCore

/// How to reach Stripe: the secret key, the API's base URL and how long to wait for it.
///
/// `description` hides the key, so a configuration can be logged whole.
public struct StripeConfiguration: Sendable, CustomStringConvertible {
    /// The secret key (`sk_live_…`, `sk_test_…`), sent as a bearer token and never logged.
    public let apiKey: String
    /// `https://api.stripe.com` in production; a local fake in tests. No trailing slash.
    public let baseURL: String
    /// How long opening a connection to Stripe may take.
    public let connectTimeout: Duration
    /// How long Stripe may stay silent while answering; a charge can take a few seconds.
    public let readTimeout: Duration
    /// How long Stripe's search may not show a charge yet: under a minute, normally, Stripe says.
    public let searchLag: Duration

    /// Checks the settings, so that a bad one stops start-up instead of failing every payment.
    ///
    /// - Throws: ``PaymentProcessorError`` with code ``PaymentProcessorError/Code/invalidConfiguration``
    ///   when the key is empty, the base URL is not an `http(s)` URL with a host (and a port from 1 to 65535
    ///   if any), or a timeout is not positive.
    public init(
        apiKey: String,
        baseURL: String = "https://api.stripe.com",
        connectTimeout: Duration = .seconds(5),
        readTimeout: Duration = .seconds(30),
        searchLag: Duration = .seconds(60)
    ) throws(PaymentProcessorError) {
        guard !apiKey.isEmpty else {
            throw PaymentProcessorError(code: .invalidConfiguration, context: "the Stripe API key is empty")
        }
        let trimmed = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        // A port past 65535 passes URL's parsing, then traps in SwiftNIO at the first charge; one too long
        // for an Int is read as no port, so every charge would go to the scheme's default port.
        guard let url = URLComponents(string: trimmed), ["http", "https"].contains(url.scheme), url.host?.isEmpty == false,
            url.rangeOfPort == nil || url.port.map({ (1...65535).contains($0) }) == true
        else {
            throw PaymentProcessorError(
                code: .invalidConfiguration,
                context: "the Stripe base URL \(baseURL) is not an http(s) URL with a host, and a port from 1 to 65535 if any")
        }
        // Every request's path starts with /v1: a base URL that has it already sends them to /v1/v1/…, where
        // Stripe's 404 would reject every order as a failed payment.
        guard !url.path.lowercased().hasSuffix("/v1") else {
            throw PaymentProcessorError(
                code: .invalidConfiguration,
                context: "the Stripe base URL \(baseURL) ends with /v1, which every request adds; give it without")
        }
        guard connectTimeout > .zero, readTimeout > .zero else {
            throw PaymentProcessorError(code: .invalidConfiguration, context: "the Stripe timeouts must be positive")
        }
        self.apiKey = apiKey
        self.baseURL = trimmed
        self.connectTimeout = connectTimeout
        self.readTimeout = readTimeout
        self.searchLag = searchLag
    }

    /// The configuration of the `HTTPClient` to give ``StripePaymentProcessor``: these timeouts, no
    /// redirects, and a connection for each of the `concurrentCharges` a worker makes at most at once.
    /// async-http-client keeps 8 per host by default: a worker placing 100 orders queued most of their
    /// requests behind those, and the time queued counts against ``requestTimeout``, so a burst read as
    /// Stripe not answering.
    public func httpClientConfiguration(concurrentCharges: Int) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: HTTPClient.Configuration.Timeout(connect: TimeAmount(connectTimeout), read: TimeAmount(readTimeout))
        )
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(concurrentCharges, 1)
        return configuration
    }

    /// The most one request may take, enforced per request whatever client it goes through.
    var requestTimeout: Duration { connectTimeout + readTimeout }

    public var description: String {
        "StripeConfiguration(baseURL: \(baseURL), connectTimeout: \(connectTimeout), readTimeout: \(readTimeout))"
    }
}
