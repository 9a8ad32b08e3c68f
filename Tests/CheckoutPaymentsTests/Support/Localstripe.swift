import AsyncHTTPClient
import CheckoutPayments
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// The localstripe server of the test environment (`scripts/test-servers.sh start`), a Stripe fake
/// written by others, and a way to read its state back.
enum Localstripe {
    /// localstripe takes any secret key of Stripe's form.
    static let apiKey = "sk_test_checkout_localstripe"

    /// `LOCALSTRIPE_URL`, or a failed test saying how to start it: the suite must not pass unrun.
    static func url(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try #require(
            ProcessInfo.processInfo.environment["LOCALSTRIPE_URL"].flatMap { $0.isEmpty ? nil : $0 },
            "LOCALSTRIPE_URL is not set: run `scripts/test-servers.sh start-localstripe` and `eval \"$(scripts/test-servers.sh env)\"`, or run the tests through scripts/test.sh",
            sourceLocation: sourceLocation
        )
    }

    /// Runs `body` with a processor for localstripe and a reader of its objects.
    static func withProcessor<T>(_ body: (StripePaymentProcessor, Reader) async throws -> T) async throws -> T {
        let baseURL = try url()
        return try await TestStripe.withProcessor(baseURL: baseURL, apiKey: apiKey) { processor in
            try await body(processor, Reader(baseURL: baseURL))
        }
    }

    /// Reads localstripe's objects with `GET`, as JSON.
    struct Reader {
        let baseURL: String

        func get(_ path: String) async throws -> [String: Any] {
            var request = HTTPClientRequest(url: baseURL + path)
            request.headers.add(name: "Authorization", value: "Bearer \(Localstripe.apiKey)")
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
            let body = try await response.body.collect(upTo: 1 << 20)
            try #require(response.status == .ok, "GET \(path) answered \(response.status): \(String(buffer: body))")
            return try #require(try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any])
        }
    }
}
