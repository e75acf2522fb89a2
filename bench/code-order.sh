#!/usr/bin/env bash
# bench/code-order.sh: writes scripts/hot-code.order, Formwright's own functions that run on every
# request, which scripts/build-release has the linker place side by side; or checks a binary's layout.
#
#   bench/code-order.sh                 # counts a release build's requests, writes the list, relinks
#   bench/code-order.sh --check BIN     # exits non-zero unless BIN's listed functions lie together
#
# The list comes from bench/instructions.sh's runs under callgrind (page, page-browser, static,
# submit; REQUESTS, 1000): every function of the formwright binary that runs once a request or more,
# the page's first. Run it again when the request path changes: a function renamed or new on the
# path is otherwise left where the compiler put it (the check fails once a tenth of the list is gone).
# Knobs: FORMWRIGHT_BIN (else a release build; given, the list is written from it and nothing is
# relinked), REQUESTS, and instructions.sh's.
#
# The check reads the binary's symbol table (nm): it wants nine in ten of the listed functions, and
# their code within a span at most a quarter larger than its size (alignment pads each function).
# Built without the list, they spread over megabytes.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
order=$repo/scripts/hot-code.order
REQUESTS=${REQUESTS:-1000}

log() { printf 'code-order: %s\n' "$*" >&2; }
die() {
    log "error: $*"
    exit 1
}

# check BIN: the listed functions' share present in BIN and the span their code takes.
check() {
    command -v nm >/dev/null || die "'nm' is not installed (apt-get install binutils)"
    [[ -r $1 ]] || die "no binary at '$1'"
    nm -S --defined-only "$1" | python3 -c '
import sys
listed = [line.strip()[len(".text."):] for line in open(sys.argv[1]) if line.startswith(".text.")]
symbols = {}
for line in sys.stdin:
    fields = line.split(maxsplit=3)
    if len(fields) == 4 and fields[2] in "tT":
        symbols[fields[3].strip()] = (int(fields[0], 16), int(fields[1], 16))
found = [symbols[name] for name in listed if name in symbols]
if not listed:
    sys.exit("the list names no function")
size = sum(length for _, length in found)
span = max(start + length for start, length in found) - min(start for start, _ in found) if found else 0
print(f"{len(found)} of {len(listed)} listed functions in the binary: {size / 1024:.1f} KiB of code "
      f"in a span of {span / 1024:.1f} KiB")
if len(found) * 10 < len(listed) * 9:
    sys.exit("fewer than nine in ten of the listed functions are in the binary: run bench/code-order.sh")
if span > size * 5 // 4:
    sys.exit("the listed functions are spread out: was the binary built with scripts/build-release?")
' "$order"
}

if [[ ${1:-} == --check ]]; then
    [[ $# == 2 ]] || die "usage: bench/code-order.sh --check BIN"
    check "$2"
    exit
fi
[[ $# == 0 ]] || die "usage: bench/code-order.sh [--check BIN]"

keep=$(mktemp -d "${TMPDIR:-/tmp}/formwright-code-order.XXXXXX")
trap 'rm -rf "$keep"' EXIT
scenarios=(page page-browser static submit)
log "counting ${scenarios[*]} under callgrind, $REQUESTS requests each"
(
    IFS=,
    KEEP=$keep SCENARIOS="${scenarios[*]}" REQUESTS=$REQUESTS "$here/instructions.sh" >"$keep/instructions.txt"
)
{
    printf '# scripts/hot-code.order: written by bench/code-order.sh; read by gold through scripts/build-release.\n'
    printf '# Formwright'"'"'s functions that run on every request (%s), one section a line.\n' "${scenarios[*]}"
    for scenario in "${scenarios[@]}"; do
        python3 "$here/codelines.py" "$REQUESTS" --functions formwright "$keep/$scenario"/callgrind.*
    done | awk '!seen[$0]++ { print ".text." $0 }'
} >"$order.new"
mv "$order.new" "$order"
log "$(grep -c '^\.text\.' "$order") functions listed in $order"
if [[ -z ${FORMWRIGHT_BIN:-} ]]; then
    # SwiftPM does not know the linker reads the list: relink by removing the binary.
    bin=$(cd "$repo" && "${SWIFT:-swift}" build -c release --show-bin-path)/formwright
    rm -f "$bin"
    "$repo/scripts/build-release" --product formwright >&2
    check "$bin"
fi
