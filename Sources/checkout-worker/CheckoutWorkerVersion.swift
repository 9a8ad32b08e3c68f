/// The release of `checkout-worker` this build is, as `checkout-worker --version` prints it.
///
/// A constant raised in the commit that makes a release, so every build of one commit (a clean
/// clone, a Docker image built without `.git`) reports the same version.
enum CheckoutWorkerVersion {
    static let current = "0.1.0"
}
