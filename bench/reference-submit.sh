#!/usr/bin/env bash
# bench/reference-submit.sh: bench/submit-event.sh with bench/reference-submit.c in Formwright's
# place. The reference does, in C, only part of the work a submission needs (its header says which),
# so its ratio to the ceiling bounds from above what any implementation of the submission can reach
# on this machine: the yardstick for the target of "≥ 75 % of the ceiling's requests/s".
# Knobs: those of submit-event.sh and run.sh (ROUNDS, DURATION, THREADS, STAT, ...); CC.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CC=${CC:-cc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck disable=SC2046 # pkg-config prints several words on purpose
"$CC" -O2 -Wall -Wextra -o "$work/reference-submit" "$here/reference-submit.c" \
    $(pkg-config --cflags --libs libmicrohttpd) -lcrypto ||
    { echo "reference-submit: cannot build bench/reference-submit.c (libmicrohttpd-dev, libssl-dev)" >&2; exit 1; }
# run.sh starts FORMWRIGHT_BIN with Formwright's command line, which the reference reads.
printf '#!/bin/sh\nexec "%s" "$@"\n' "$work/reference-submit" >"$work/formwright"
chmod +x "$work/formwright"
# The tables name the server under test "formwright"; here it is the reference.
FORMWRIGHT_BIN=$work/formwright "$here/submit-event.sh" | sed 's/formwright/reference /g'
