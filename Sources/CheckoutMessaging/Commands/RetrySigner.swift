import Crypto

/// Signs the retry count the worker writes on a retry copy, so that a count only a worker wrote is
/// believed: a client could otherwise set `x-retry-count` on its first publish and skip the retries.
///
/// The key is shared by every worker of a deployment (the store keeps it); a count without a valid
/// signature is taken as 0.
public struct RetrySigner: Sendable {
    private let key: SymmetricKey

    public init(key: [UInt8]) {
        self.key = SymmetricKey(data: key)
    }

    func signature(messageID: String, retryCount: Int) -> String {
        HMAC<SHA256>.authenticationCode(for: Array("\(retryCount):\(messageID)".utf8), using: key).lowercaseHex
    }

    func verifies(_ signature: String, messageID: String, retryCount: Int) -> Bool {
        signature == self.signature(messageID: messageID, retryCount: retryCount)
    }
}
