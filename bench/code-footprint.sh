#!/usr/bin/env bash
# bench/code-footprint.sh: what code run once per request costs on this machine, apart from the
# instructions it runs. Three builds of the ceiling serve the same page side by side (bench/interleave.py):
#   plain     bench/ceiling.c as it is;
#   straight  + a function of KIB KiB of straight-line code (15-byte no-ops), run on every GET;
#   loop      + the same number of no-ops, run from a loop of 225 bytes.
# straight and loop run the same instructions; straight reads KIB KiB of code more per request. Between
# two requests the kernel's network path evicts user code from the first-level instruction cache, so
# straight pays for its lines on every request: its gap to loop is the price of code per request, the
# reason bench/instructions.sh counts code lines.
#
# Knobs: KIB (20), ROUNDS (40), DURATION (1 s), THREADS (nproc), CC.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
KIB=${KIB:-20}
ROUNDS=${ROUNDS:-40}
DURATION=${DURATION:-1}
THREADS=${THREADS:-$(nproc)}
CC=${CC:-cc}
HOST=127.0.0.1 # loopback only, on purpose

die() {
    printf 'code-footprint: error: %s\n' "$*" >&2
    exit 1
}
if ! [[ $KIB =~ ^[0-9]+$ ]] || ((KIB < 1)); then die "KIB must be a whole number of at least 1"; fi
for tool in wrk curl python3 "$CC" pkg-config; do command -v "$tool" >/dev/null || die "'$tool' is not installed"; done

# shellcheck source=bench/servers.sh
source "$here/servers.sh"
open_servers footprint

# The ceiling with `burn()` called after each GET is counted: no-ops, 15 bytes each, in a row or in a loop.
nops=$((KIB * 1024 / 15))
cat >"$tmp/burn.c" <<EOF
#define NOP ".byte 0x66,0x66,0x66,0x66,0x66,0x66,0x2e,0x0f,0x1f,0x84,0,0,0,0,0\n"
static void __attribute__((noinline)) burn(void)
{
#if defined(STRAIGHT)
    __asm__ volatile(".rept $nops\n" NOP ".endr\n");
#elif defined(LOOP)
    for (volatile int i = 0; i < $((nops / 15)); i++) __asm__ volatile(".rept 15\n" NOP ".endr\n");
#endif
}
EOF
sed -e '/^static MHD_RESULT handle(/e cat '"$tmp/burn.c" -e 's/count(&n_get, 1);/count(\&n_get, 1);\n        burn();/' \
    "$here/ceiling.c" >"$tmp/ceiling-burn.c"
grep -q 'burn();' "$tmp/ceiling-burn.c" || die "could not add the extra code to bench/ceiling.c"
for variant in plain straight loop; do
    define=()
    [[ $variant == plain ]] || define=(-D"${variant^^}")
    # shellcheck disable=SC2046 # pkg-config prints several words on purpose
    "$CC" -O2 -I"$here" "${define[@]}" -o "$tmp/$variant" "$tmp/ceiling-burn.c" \
        $(pkg-config --cflags --libs libmicrohttpd) || die "cannot build the $variant ceiling"
done

# A 6 KiB page, as the event form's.
head -c 6144 /dev/zero | tr '\0' 'x' >"$tmp/page.html"
servers=()
port=18940
for variant in straight loop plain; do
    serve "$variant" "http://$HOST:$port/" "$tmp/$variant" -t "$THREADS" "$port" "$tmp/page.html"
    servers+=("$variant=http://$HOST:$port/")
    port=$((port + 1))
done
printf 'straight and loop run %d no-ops per request; straight reads %d KiB of code for them, loop 225 bytes\n' \
    "$nops" "$KIB"
python3 "$here/interleave.py" --rounds "$ROUNDS" --duration "$DURATION" "${servers[@]}"
