#!/usr/bin/env bash
# bench/reference-page.sh: the page benchmark (`SCENARIOS=page PAGE_PATH=/forms/event
# PAGE_HEADERS=all bench/run.sh`) with bench/reference-page.c in Formwright's place. The reference
# sends Formwright's own page for the event form and does, in C, what a new reader's page needs per
# request (its header says what: a nonce, the CSRF token, a pooled response, the access log), so its
# ratio to the ceiling is what the page target asks of any implementation on this machine.
# Knobs: those of run.sh (ROUNDS, DURATION, THREADS, STAT, ...); ACCESS_LOG=0 for no access log
# (compare with FORMWRIGHT_ARGS=--no-access-log); FORMWRIGHT_BIN for the Formwright whose page is
# sent (else a release build); CC.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
CC=${CC:-cc}
PORT=${PORT:-18792}
work=$(mktemp -d)
server=
cleanup() {
    if [[ -n $server ]]; then kill -TERM "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

# shellcheck disable=SC2046 # pkg-config prints several words on purpose
"$CC" -O2 -Wall -Wextra -o "$work/reference-page" "$here/reference-page.c" \
    $(pkg-config --cflags --libs libmicrohttpd) -lcrypto ||
    { echo "reference-page: cannot build bench/reference-page.c (libmicrohttpd-dev, libssl-dev)" >&2; exit 1; }

if [[ -z ${FORMWRIGHT_BIN:-} ]]; then
    "$repo/scripts/build-release" --product formwright >&2
    FORMWRIGHT_BIN=$repo/.build/release/formwright
fi
export FORMWRIGHT_SECRET=${FORMWRIGHT_SECRET:-bench-secret}
# The page a new reader gets from Formwright, body and header fields, saved for the reference to send.
"$FORMWRIGHT_BIN" serve --host 127.0.0.1 --port "$PORT" --forms "${FORMS:-$repo/Forms}" --threads 1 \
    --store none >"$work/formwright.log" 2>&1 &
server=$!
for ((i = 0; i < 100; i++)); do
    curl -fs -D "$work/page.head" -o "$work/page.html" "http://127.0.0.1:$PORT/forms/event" && break
    kill -0 "$server" 2>/dev/null || { cat "$work/formwright.log" >&2; exit 1; }
    sleep 0.2
done
kill -TERM "$server"
wait "$server" || true
server=
[[ -s $work/page.html ]] || { echo "reference-page: could not save Formwright's page" >&2; exit 1; }

# run.sh starts FORMWRIGHT_BIN with Formwright's command line, which the reference reads.
printf '#!/bin/sh\nexec env REFERENCE_PAGE="%s" REFERENCE_HEADERS="%s" "%s" "$@"\n' \
    "$work/page.html" "$work/page.head" "$work/reference-page" >"$work/formwright"
chmod +x "$work/formwright"
# The tables name the server under test "formwright"; here it is the reference.
FORMWRIGHT_BIN=$work/formwright SCENARIOS=page PAGE_PATH=/forms/event PAGE_HEADERS=${PAGE_HEADERS:-all} \
    "$here/run.sh" | sed 's/formwright/reference /g'
