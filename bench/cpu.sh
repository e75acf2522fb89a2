#!/usr/bin/env bash
# bench/cpu.sh: where each request's CPU time goes, Formwright against the ceiling, sampled by
# `perf record -e cpu-clock` while wrk loads one server at a time (one server thread, wrk -t1 -c32).
#
# Instruction counts (instructions.sh) repeat to the instruction but cannot see the kernel, atomic
# operations' real cost or hardware paths (SHA extensions a valgrind CPU lacks); req/s (run.sh) says
# how far apart the servers are but not why. This says: µs of CPU per request in the kernel, libc,
# libmicrohttpd, the Swift runtime and Formwright itself, and the user-space functions that cost most.
# Figures are absolute: compare the two servers of one run, not runs on a busy machine.
#
# Scenarios (SCENARIOS, comma-separated): static, page, submit, as instructions.sh has them.
# Knobs: DURATION (5 s per server), TOP (15 functions), FREQUENCY (4999 samples per CPU second),
# PAGE_PATH (/forms/event), FORMWRIGHT_BIN (else a release build), SWIFT, CC, FORMS.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
# shellcheck source=bench/workspace.sh
source "$here/workspace.sh"

SCENARIOS=${SCENARIOS:-static,page,submit}
DURATION=${DURATION:-5}
TOP=${TOP:-15}
FREQUENCY=${FREQUENCY:-4999}
PAGE_PATH=${PAGE_PATH:-/forms/event}
PORT=${PORT:-18791}

log() { printf 'cpu: %s\n' "$*" >&2; }
die() {
    log "error: $*"
    exit 1
}

for knob in DURATION TOP FREQUENCY; do
    if ! [[ ${!knob} =~ ^[0-9]+$ ]] || ((${!knob} < 1)); then die "$knob must be a whole number of at least 1"; fi
done
for tool in perf wrk curl python3 "$CC" pkg-config; do
    command -v "$tool" >/dev/null || die "'$tool' is not installed (apt-get install linux-perf wrk curl)"
done

open_workspace cpu
mkdir "$tmp/public"
make_bench_page "$tmp/public/page.html" 5120 || die "cannot write page.html"
write_event_body "$tmp/event.body" || die "cannot write the event body"
# The submit scenario's requests, as post.lua sends them for run.sh.
export SUBMIT_BODY=$tmp/event.body SUBMIT_HEADERS="Cookie: fw_csrf=$EVENT_NONCE"

# start NAME PROBE_PATH COMMAND...: starts a server on PORT, waits until PROBE_PATH answers.
start() {
    local name=$1 path=$2 i
    shift 2
    "$@" >"$tmp/$name.log" 2>&1 &
    server=$!
    for ((i = 0; i < 100; i++)); do
        curl -fs -o /dev/null "http://$HOST:$PORT$path" && return 0
        kill -0 "$server" 2>/dev/null || die "$name stopped at start: $(tail -3 "$tmp/$name.log")"
        sleep 0.1
    done
    die "$name did not answer http://$HOST:$PORT$path"
}

stop() {
    kill -TERM "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    server=
}

# measure NAME PATH [LUA]: warms the running server up, then records it for DURATION seconds of
# wrk load; writes NAME.requests (answered requests) and NAME.report (perf's samples by object and
# by symbol).
measure() {
    local name=$1 path=$2 lua=${3:-}
    local args=(-t1 -c32)
    [[ -n $lua ]] && args+=(-s "$lua")
    wrk "${args[@]}" -d1s "http://$HOST:$PORT$path" >/dev/null
    perf record -q -e cpu-clock -F "$FREQUENCY" -p "$server" -o "$tmp/$name.data" -- \
        wrk "${args[@]}" -d"${DURATION}s" "http://$HOST:$PORT$path" >"$tmp/$name.wrk" 2>"$tmp/$name.perf" ||
        die "$name: perf record failed: $(tail -3 "$tmp/$name.perf")"
    if grep -q "Non-2xx or 3xx responses" "$tmp/$name.wrk"; then die "$name: some answers were not 2xx or 3xx"; fi
    awk '/requests in/ { print $1 }' "$tmp/$name.wrk" >"$tmp/$name.requests"
    perf report -i "$tmp/$name.data" --no-children --sort dso,sym -g none -n --stdio 2>/dev/null >"$tmp/$name.report"
}

# The report: µs of CPU per request by layer, then the costliest user-space functions.
cat >"$tmp/report.py" <<'PY'
import re, sys
frequency, top, tmp, names = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4:]

def layer(dso, symbol):
    if dso.startswith("[kernel"): return "kernel"
    if dso.startswith("libc.so"): return "memset (libc)" if "memset" in symbol else "libc"
    if dso.startswith("libmicrohttpd"): return "libmicrohttpd"
    if dso.startswith("libswift") or dso.startswith("libdispatch") or dso.startswith("libFoundation"):
        return "Swift runtime"
    if dso in ("ceiling", "formwright"): return "the server's own code"
    return "other"

layers = ["kernel", "memset (libc)", "libc", "libmicrohttpd", "Swift runtime", "the server's own code", "other"]
rows, tops = {}, {}
for name in names:
    requests = int(open(f"{tmp}/{name}.requests").read().split()[0])
    per_layer, per_symbol = dict.fromkeys(layers, 0.0), {}
    for line in open(f"{tmp}/{name}.report", errors="replace"):
        m = re.match(r"\s*[\d.]+%\s+(\d+)\s+(\S+)\s+\[(.)\]\s+(.*)", line)
        if not m: continue
        samples, dso, kind, symbol = int(m.group(1)), m.group(2), m.group(3), m.group(4).strip()
        microseconds = samples / frequency * 1e6 / requests
        per_layer[layer(dso, symbol)] += microseconds
        if kind != "k": per_symbol[symbol] = per_symbol.get(symbol, 0.0) + microseconds
    rows[name] = (requests, per_layer)
    tops[name] = sorted(per_symbol.items(), key=lambda item: -item[1])[:top]

print(f"   {'µs of CPU per request':24}" + "".join(f"{name:>14}" for name in names))
for key in layers:
    if any(rows[name][1][key] >= 0.005 for name in names):
        print(f"   {key:24}" + "".join(f"{rows[name][1][key]:14.2f}" for name in names))
print(f"   {'total':24}" + "".join(f"{sum(rows[name][1].values()):14.2f}" for name in names))
print(f"   {'requests answered':24}" + "".join(f"{rows[name][0]:14d}" for name in names))
for name in names:
    print(f"\n   {name}: the {top} costliest user-space functions, µs per request")
    for symbol, microseconds in tops[name]:
        print(f"   {microseconds:8.3f}  {symbol[:110]}")
PY

IFS=, read -r -a scenarios <<<"$SCENARIOS"
for scenario in "${scenarios[@]}"; do
    lua=
    case $scenario in
    static) path=/static/page.html ceiling_file=$tmp/public/page.html ;;
    page) path=$PAGE_PATH ceiling_file=$tmp/page.html ;;
    submit) path=/forms/event ceiling_file=$tmp/public/page.html lua=$here/post.lua ;;
    *) die "unknown scenario '$scenario' (known: static, page, submit)" ;;
    esac
    cp "$FORMWRIGHT_BIN" "$tmp/formwright"
    start formwright /healthz "$tmp/formwright" serve --host "$HOST" --port "$PORT" --public "$tmp/public" \
        --forms "$FORMS" --threads 1 --store none
    # The ceiling serves the page as Formwright renders it.
    [[ $scenario == page ]] && { curl -fs -o "$ceiling_file" "http://$HOST:$PORT$path" || die "cannot save the page"; }
    log "$scenario: formwright, ${DURATION}s"
    measure formwright "$path" "$lua"
    stop
    start ceiling / "$tmp/ceiling" -t 1 "$PORT" "$ceiling_file" "text/html; charset=utf-8"
    log "$scenario: ceiling, ${DURATION}s"
    measure ceiling "$path" "$lua"
    stop
    printf '\n== %s: %s, one server thread, wrk -t1 -c32 for %ss each\n' "$scenario" "$path" "$DURATION"
    python3 "$tmp/report.py" "$FREQUENCY" "$TOP" "$tmp" formwright ceiling
done
