import Testing

@testable import checkout_bench

/// Which worker the end-to-end benchmark runs when it is not told: the one the worker's package built,
/// the folder above the benchmark package, in the bench's own triple and configuration.
@Suite struct EndToEndCommandTests {
    @Test func findsTheWorkerInTheBuildDirectoryOfThePackageAboveWithTheBenchsConfiguration() {
        #expect(
            EndToEndCommand.defaultWorker(forBenchAt: "/src/checkout/Benchmarks/.build/x86_64-unknown-linux-gnu/release/checkout-bench")
                == "/src/checkout/.build/x86_64-unknown-linux-gnu/release/checkout-worker")
        #expect(
            EndToEndCommand.defaultWorker(forBenchAt: "/src/checkout/Benchmarks/.build/debug/checkout-bench")
                == "/src/checkout/.build/debug/checkout-worker")
    }

    @Test func findsNoWorkerForABenchOutsideABuildDirectory() {
        #expect(EndToEndCommand.defaultWorker(forBenchAt: "/usr/local/bin/checkout-bench") == nil)
        #expect(EndToEndCommand.defaultWorker(forBenchAt: "/.build/release/checkout-bench") == nil)
        #expect(EndToEndCommand.defaultWorker(forBenchAt: "/src/checkout/Benchmarks/.build") == nil)
    }
}
