# Formwright container image: a release build in the official Swift image, run on Debian slim.
#   docker build -t formwright .
#   docker run -p 8080:8080 formwright
#   docker run -p 8080:8080 -v "$PWD/Forms:/app/Forms:ro" formwright    (serves your own forms)
# Tests/Container/run.sh builds and runs this file unchanged, with podman.

FROM swift:6.3-bookworm AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends libmicrohttpd-dev libssl-dev libsqlite3-dev libpq-dev libcurl4-openssl-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Manifest first, so dependency resolution is cached while only sources change.
COPY Package.swift ./
RUN swift package resolve
# SwiftPM loads every target the manifest names, tests and benchmarks included, even to build one
# product: each folder a target lives in must be here.
COPY Sources ./Sources
COPY Tests ./Tests
COPY bench ./bench
COPY Examples ./Examples
COPY scripts ./scripts
# The release build every script shares (scripts/build-release), with the Swift runtime linked in.
# Debug info out (most of the binary's size); the symbol table stays, so crash backtraces keep names.
RUN scripts/build-release --static-swift-stdlib --product formwright \
    && install -D "$(swift build -c release --static-swift-stdlib --show-bin-path)/formwright" /out/formwright \
    && strip --strip-debug /out/formwright

FROM debian:bookworm-slim
# Only the runtime libraries of libmicrohttpd, libcrypto, SQLite, libpq and libcurl: the Swift runtime is
# linked into the binary.
RUN apt-get update \
    && apt-get install -y --no-install-recommends libmicrohttpd12 libssl3 libsqlite3-0 libpq5 libcurl4 \
    && apt-get clean \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 formwright \
    && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin formwright \
    && mkdir /data && chown 10001:10001 /data
WORKDIR /app
# The default store, data/formwright.db from the working folder, lives on the /data volume: mount one
# to keep submissions across containers.
RUN ln -s /data /app/data
VOLUME ["/data"]
COPY --from=build /out/formwright /app/formwright
COPY Forms /app/Forms
COPY Public /app/Public
ENV FORMWRIGHT_HOST=0.0.0.0 \
    FORMWRIGHT_PORT=8080 \
    FORMWRIGHT_FORMS=/app/Forms \
    FORMWRIGHT_PUBLIC=/app/Public
USER 10001:10001
EXPOSE 8080
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["/app/formwright", "probe"]
ENTRYPOINT ["/app/formwright"]
CMD ["serve"]
