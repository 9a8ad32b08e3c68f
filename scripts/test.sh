#!/usr/bin/env bash
# The project's test command:
#   scripts/test.sh                 build, start private RabbitMQ, PostgreSQL and localstripe, run `swift test`, stop them
#   scripts/test.sh --filter X      any arguments go to `swift test`, in the worker's package and in Benchmarks/
# The servers (see scripts/test-servers.sh) are stopped on exit, also on failure or Ctrl-C, unless
# they were already running before (then they are left as found). KEEP_TEST_SERVERS=1 keeps them up.
# The chaos and cluster suites also need the three-node test cluster (`test-servers.sh start-cluster`),
# started for the whole run, or for a run whose arguments select them (--filter ChaosTests, or
# --filter CheckoutWorkerTests); they then run on their own, after the other selected suites.
# The benchmark package (Benchmarks/) is built and its tests run too; they need no servers.
# A full run (no arguments) ends with scripts/check-examples.sh: compose and the Kubernetes manifests
# validated offline, the Python client example run against the built worker.
# The exit code is swift test's, or check-examples.sh's when the tests passed.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
SERVERS="$PWD/scripts/test-servers.sh"

say() { printf '==> %s\n' "$*" >&2; }

# One run at a time per checkout: a second run would stop the first one's servers.
mkdir -p .servers
exec 8>.servers/test.lock
if ! flock -n 8; then
    say "another scripts/test.sh is running in this checkout, waiting for it (.servers/test.lock)"
    flock -w 5400 8 || { echo "test.sh: gave up waiting for .servers/test.lock" >&2; exit 1; }
fi

stop_servers=0
stop_cluster=0
cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    if ((stop_servers)) && [[ "${KEEP_TEST_SERVERS:-0}" != 1 ]]; then
        say "stopping the test servers"
        "$SERVERS" stop 8>&- || echo "test.sh: WARNING: could not stop the test servers cleanly" >&2
    elif ((stop_cluster)) && [[ "${KEEP_TEST_SERVERS:-0}" != 1 ]]; then
        say "stopping the test cluster"
        "$SERVERS" stop-cluster 8>&- || echo "test.sh: WARNING: could not stop the test cluster cleanly" >&2
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# librabbitmq-dev & co. are needed by the build itself.
"$SERVERS" install 8>&-

say "checking the format (swift format lint, .swift-format)"
swift format lint --strict --recursive --parallel Sources Tests Benchmarks/Sources Benchmarks/Tests || {
    echo "test.sh: ERROR: sources differ from .swift-format's layout; run: swift format format --in-place --recursive" \
        "Sources Tests Benchmarks/Sources Benchmarks/Tests" >&2
    exit 1
}

say "building (swift build --build-tests)"
swift build --build-tests
# The worker exports traces over OTLP/HTTP only: no gRPC package may enter its build graph.
if swift package show-dependencies | grep -qi grpc; then
    echo "test.sh: ERROR: a gRPC package is in the dependency graph (swift package show-dependencies)" >&2
    exit 1
fi
# WorkerProcessTests and CrashSafetyTests run the executable itself, from the build directory.
[[ -x "$(swift build --show-bin-path)/checkout-worker" ]] || {
    echo "test.sh: ERROR: the build produced no $(swift build --show-bin-path)/checkout-worker, which the process tests run" >&2
    exit 1
}
say "building the benchmarks (swift build --build-tests --package-path Benchmarks)"
swift build --build-tests --package-path Benchmarks

if "$SERVERS" status >/dev/null 2>&1; then
    say "test servers already running: reusing them and leaving them up"
else
    stop_servers=1
fi
"$SERVERS" start 8>&- || { echo "test.sh: ERROR: the test servers did not start (see above)" >&2; exit 1; }
eval "$("$SERVERS" env)"
say "RABBITMQ_URL=$RABBITMQ_URL RABBITMQ_TLS_URL=$RABBITMQ_TLS_URL POSTGRES_URL=$POSTGRES_URL"

# At most 8 tests at once: started all together, the tests kept far more threads runnable than 2
# cores serve, event loops went unserved for seconds, and tests of timeouts failed at random.
width=(--experimental-maximum-parallelization-width 8)

# The three-node cluster that the chaos and cluster suites stop, cut and fail over.
start_cluster() {
    if "$SERVERS" cluster-status >/dev/null 2>&1; then
        say "test cluster already running: reusing it and leaving it up"
    else
        stop_cluster=1
    fi
    "$SERVERS" start-cluster 8>&- || { echo "test.sh: ERROR: the test cluster did not start (see above)" >&2; return 1; }
    eval "$("$SERVERS" cluster-env)"
    say "RABBITMQ_CLUSTER_URLS=$RABBITMQ_CLUSTER_URLS"
}

# Whether swift test's arguments (after the suite id) select suite $1 (CheckoutWorkerTests.ChaosTests):
# no --filter, or a --filter that matches its id or names it, and no --skip that does.
selects() {
    local id=$1 filters=() skips=() f
    shift
    while (($#)); do
        case $1 in
            --filter) filters+=("${2:-}"); shift 2 || shift ;;
            --filter=*) filters+=("${1#--filter=}"); shift ;;
            --skip) skips+=("${2:-}"); shift 2 || shift ;;
            --skip=*) skips+=("${1#--skip=}"); shift ;;
            *) shift ;;
        esac
    done
    for f in "${skips[@]}"; do [[ $id =~ $f || $f == *"${id#*.}"* ]] && return 1; done
    ((${#filters[@]} == 0)) && return 0
    for f in "${filters[@]}"; do [[ $id =~ $f || $f == *"${id#*.}"* ]] && return 0; done
    return 1
}

# Runs each suite named on its own, on the test cluster (they stop and cut its nodes); returns the
# first failure's status.
run_on_cluster() {
    start_cluster || return 1
    local status=0 suite suite_rc
    for suite in "$@"; do
        say "running swift test --filter $suite (on its own, on the test cluster)"
        swift test --skip-build --filter "$suite"
        suite_rc=$?
        ((status != 0)) || status=$suite_rc
    done
    return "$status"
}

# The benchmark package's tests, with swift test's arguments: its own filter decides which run.
run_bench_tests() {
    say "running swift test --package-path Benchmarks $*"
    swift test --skip-build --package-path Benchmarks "$@"
}

set +e
if [[ $# -gt 0 ]]; then
    rc=0
    # The chaos and cluster suites need the cluster, and each must run alone (they stop and cut its
    # nodes): a filter that selects them (--filter CheckoutWorkerTests does) runs them after the rest.
    alone=()
    for suite in ChaosTests ClusterFailoverTests; do
        if selects "CheckoutWorkerTests.$suite" "$@"; then alone+=("$suite"); fi
    done
    only_alone=0
    if ((${#alone[@]} > 0)) && [[ "$*" =~ --filter ]]; then
        only_alone=1
        for f in "$@"; do
            [[ $f == --* ]] && continue
            [[ $f == *ChaosTests* || $f == *ClusterFailoverTests* ]] || only_alone=0
        done
    fi
    if ((${#alone[@]} == 0)); then
        say "running swift test $*"
        swift test --skip-build "${width[@]}" "$@"
        rc=$?
    else
        if ((only_alone == 0)); then
            say "running swift test $* --skip ChaosTests --skip ClusterFailoverTests"
            swift test --skip-build "${width[@]}" "$@" --skip ChaosTests --skip ClusterFailoverTests
            rc=$?
        fi
        run_on_cluster "${alone[@]}"
        cluster_rc=$?
        [[ $rc -ne 0 ]] || rc=$cluster_rc
    fi
    run_bench_tests "$@"
    bench_rc=$?
    [[ $rc -ne 0 ]] || rc=$bench_rc
else
    # Suites that close every broker connection, stop a node or raise its memory alarm would break
    # the suites running beside them, so they run on their own, after the rest; so does the suite that
    # measures the test process's own memory, which the suites beside it would grow, and the one that
    # cuts the database in the middle of store calls, whose calls the parallel load slowed past their
    # deadlines before the cut.
    say "running swift test (everything but the suites that break servers or measure memory, in parallel)"
    swift test --skip-build "${width[@]}" --skip BrokerDisruptionTests --skip DatabaseDeadlineTests --skip DatabaseOutageTests \
        --skip ChaosTests --skip ClusterFailoverTests
    rc=$?
    say "running swift test --filter 'BrokerDisruptionTests|DatabaseDeadlineTests|DatabaseOutageTests' (on their own)"
    swift test --skip-build --filter 'BrokerDisruptionTests|DatabaseDeadlineTests|DatabaseOutageTests'
    disruption_rc=$?
    [[ $rc -ne 0 ]] || rc=$disruption_rc
    run_on_cluster ChaosTests ClusterFailoverTests
    cluster_rc=$?
    [[ $rc -ne 0 ]] || rc=$cluster_rc
    run_bench_tests
    bench_rc=$?
    [[ $rc -ne 0 ]] || rc=$bench_rc
    say "running scripts/check-examples.sh (compose and Kubernetes validated, the Python client against the worker)"
    scripts/check-examples.sh 8>&-
    examples_rc=$?
    [[ $rc -ne 0 ]] || rc=$examples_rc
fi
set -e
say "test.sh exits with $rc"
exit "$rc"
