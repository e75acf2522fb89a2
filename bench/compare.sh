#!/usr/bin/env bash
# bench/compare.sh: the page benchmark for one or more Formwright binaries at once, against the ceiling
# serving the first one's page (body and every header field, as run.sh's PAGE_HEADERS=all), all
# running side by side and measured in short rounds taken in a new random order each round
# (bench/interleave.py). Made to tell two builds apart on a noisy machine: their paired ratio comes
# with a 95% interval.
#
#   bench/compare.sh BIN [BIN...]            # e.g. bench/compare.sh /tmp/before /tmp/after
#   REFERENCE=1 bench/compare.sh BIN          # and the C page reference (reference-page.c) beside them
#   bench/compare.sh BIN "BIN --max-header 62k"   # one build two ways: words after a BIN go to `serve`
#
# Knobs: ROUNDS (40), DURATION (1 s a round), THREADS (nproc), CONNECTIONS (32), PAGE_PATH
# (/forms/event), FORMS, CC, REFERENCE (0; 1 adds the reference, which needs libssl-dev). Needs wrk,
# curl, python3, a C compiler and libmicrohttpd-dev.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
ROUNDS=${ROUNDS:-40}
DURATION=${DURATION:-1}
THREADS=${THREADS:-$(nproc)}
CONNECTIONS=${CONNECTIONS:-32}
PAGE_PATH=${PAGE_PATH:-/forms/event}
FORMS=${FORMS:-$repo/Forms}
CC=${CC:-cc}
REFERENCE=${REFERENCE:-0}
HOST=127.0.0.1 # loopback only, on purpose

log() { printf 'compare: %s\n' "$*" >&2; }
die() {
    log "error: $*"
    exit 1
}
(($# >= 1)) || die "usage: bench/compare.sh BIN [BIN...] (Formwright binaries, each with serve's flags if any)"
for bin in "$@"; do
    read -ra words <<<"$bin"
    [[ -x ${words[0]} ]] || die "no executable at ${words[0]}"
done
for tool in wrk curl python3 "$CC" pkg-config; do command -v "$tool" >/dev/null || die "'$tool' is not installed"; done

# shellcheck source=bench/page.sh
source "$here/page.sh"
# shellcheck source=bench/servers.sh
source "$here/servers.sh"
open_servers compare
# shellcheck disable=SC2046 # pkg-config prints several words on purpose
"$CC" -O2 -Wall -Wextra -o "$tmp/ceiling" "$here/ceiling.c" $(pkg-config --cflags --libs libmicrohttpd) ||
    die "cannot build bench/ceiling.c"

export FORMWRIGHT_SECRET=${FORMWRIGHT_SECRET:-bench-secret-bench-secret-bench-secret}
servers=()
port=18930
index=0
for bin in "$@"; do
    index=$((index + 1))
    read -ra words <<<"$bin"
    serve "formwright$index" "http://$HOST:$port$PAGE_PATH" "${words[0]}" serve "${words[@]:1}" \
        --host "$HOST" --port "$port" \
        --forms "$FORMS" --public "$repo/Public" --threads "$THREADS" --store none
    servers+=("formwright$index=http://$HOST:$port$PAGE_PATH")
    port=$((port + 1))
done

# The ceiling sends the first binary's page with every header field but those it writes itself.
curl -fs -D "$tmp/page.head" -o "$tmp/page.html" "http://$HOST:18930$PAGE_PATH" || die "cannot save the page"
mapfile -d '' -t headers < <(header_options "$tmp/page.head")
if [[ $REFERENCE == 1 ]]; then
    # shellcheck disable=SC2046 # pkg-config prints several words on purpose
    "$CC" -O2 -Wall -Wextra -o "$tmp/reference" "$here/reference-page.c" \
        $(pkg-config --cflags --libs libmicrohttpd) -lcrypto || die "cannot build bench/reference-page.c (libssl-dev?)"
    serve reference "http://$HOST:$port$PAGE_PATH" env REFERENCE_PAGE="$tmp/page.html" \
        REFERENCE_HEADERS="$tmp/page.head" "$tmp/reference" serve --host "$HOST" --port "$port" --threads "$THREADS"
    servers+=("reference=http://$HOST:$port$PAGE_PATH")
    port=$((port + 1))
fi
serve ceiling "http://$HOST:$port$PAGE_PATH" \
    "$tmp/ceiling" -t "$THREADS" "${headers[@]}" "$port" "$tmp/page.html" "text/html; charset=utf-8"
servers+=("ceiling=http://$HOST:$port$PAGE_PATH")

for ((index = 1; index <= $#; index++)); do printf 'formwright%d: %s\n' "$index" "${!index}"; done
printf 'GET %s, %s threads per server\n' "$PAGE_PATH" "$THREADS"
python3 "$here/interleave.py" --rounds "$ROUNDS" --duration "$DURATION" --connections "$CONNECTIONS" "${servers[@]}"
