import Testing

@testable import CheckoutMessaging

@Suite struct RetrySignerTests {
    private let signer = RetrySigner(key: Array(repeating: 7, count: 32))

    @Test func verifiesTheCountItSignedForTheCommandItSignedIt() {
        let signature = signer.signature(messageID: "cmd-1", retryCount: 2)

        #expect(signer.verifies(signature, messageID: "cmd-1", retryCount: 2))
        #expect(!signer.verifies(signature, messageID: "cmd-1", retryCount: 5))
        #expect(!signer.verifies(signature, messageID: "cmd-2", retryCount: 2))
        #expect(!RetrySigner(key: Array(repeating: 8, count: 32)).verifies(signature, messageID: "cmd-1", retryCount: 2))
    }
}
