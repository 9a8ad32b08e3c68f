# syntax=docker/dockerfile:1
# checkout-worker: built with the Swift toolchain image, run on a slim Debian with only its run-time libraries.
# Both stages are Debian bookworm, so the binary finds the same glibc, librabbitmq and OpenSSL it was linked against.
# Hummingbird and swift-prometheus need Swift 6.2 tools or newer.

ARG SWIFT_IMAGE=swift:6.3-bookworm

FROM ${SWIFT_IMAGE} AS build
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get -q update \
    && apt-get -q install -y --no-install-recommends librabbitmq-dev libssl-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /build

# Resolve first, in a layer of its own, so that a change to the sources does not fetch the dependencies again.
COPY Package.swift ./
RUN swift package resolve

COPY . .
RUN swift build -c release --product checkout-worker --static-swift-stdlib \
    && mkdir /staging \
    && cp "$(swift build -c release --show-bin-path)/checkout-worker" /staging/ \
    && find "$(swift build -c release --show-bin-path)" -maxdepth 1 -name '*.resources' -exec cp -R {} /staging/ \; \
    && cp /usr/libexec/swift/linux/swift-backtrace-static /staging/

FROM debian:bookworm-slim
# librabbitmq4 and libssl3 for the broker (AMQP and AMQPS); ca-certificates for TLS to the broker, database
# and payment processor; tzdata for Foundation's time zones. The Swift runtime itself is linked in statically.
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get -q update \
    && apt-get -q install -y --no-install-recommends librabbitmq4 libssl3 ca-certificates tzdata \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --user-group --home-dir /app --shell /usr/sbin/nologin checkout

# The image has no curl: health checks speak HTTP through bash's /dev/tcp. `probe PATH` exits 0 when
# GET PATH on the operations port answers 200 within 5 seconds.
COPY --chmod=755 <<'PROBE' /usr/local/bin/probe
#!/bin/bash
exec 3<>"/dev/tcp/127.0.0.1/${CHECKOUT_HTTP_PORT:-8080}" || exit 1
printf 'GET %s HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n' "${1:-/health/live}" >&3
read -r -t 5 _ status _ <&3
[ "$status" = 200 ]
PROBE

# The program and the demo catalog belong to root and are read-only for the worker; the only place it
# can write is its data directory, where the default SQLite database lives. It is a volume, so the database
# outlives the container; with PostgreSQL (CHECKOUT_DATABASE_URL=postgres://...) it stays empty.
WORKDIR /app
COPY --from=build /staging /app
COPY demo-catalog.json /app/demo-catalog.json
RUN install -d -o checkout -g checkout -m 0750 /var/lib/checkout-worker
VOLUME /var/lib/checkout-worker
USER checkout:checkout

# Symbolicated crash backtraces on standard error, without an interactive debugger.
ENV SWIFT_BACKTRACE=enable=yes,sanitize=yes,threads=all,images=all,interactive=no,swift-backtrace=/app/swift-backtrace-static \
    CHECKOUT_DATABASE_URL=sqlite:///var/lib/checkout-worker/checkout.sqlite \
    CHECKOUT_HTTP_PORT=8080 \
    CHECKOUT_LOG_FORMAT=json

EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=6s --start-period=20s --retries=3 CMD ["probe", "/health/live"]
ENTRYPOINT ["/app/checkout-worker"]
CMD ["run"]
