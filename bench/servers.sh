# shellcheck shell=bash
# bench/servers.sh: sourced by compare.sh and code-footprint.sh, which run several servers side by side.
# Callers define die first.

# open_servers NAME: makes the scratch folder $tmp; on exit, every server started with `serve` is
# stopped (SIGTERM, then waited for) and the folder removed.
open_servers() {
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/formwright-$1.XXXXXX")
    server_pids=()
    trap close_servers EXIT
}

close_servers() {
    local pid
    for pid in "${server_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${server_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$tmp"
}

# serve NAME URL COMMAND...: starts COMMAND (its output in $tmp/NAME.log) and waits, 20 s at most,
# until URL answers 2xx.
serve() {
    local name=$1 url=$2 i
    shift 2
    "$@" >"$tmp/$name.log" 2>&1 &
    server_pids+=($!)
    for ((i = 0; i < 100; i++)); do
        curl -fs -o /dev/null --max-time 1 "$url" && return 0
        kill -0 "$!" 2>/dev/null || die "$name stopped at start: $(tail -3 "$tmp/$name.log")"
        sleep 0.2
    done
    die "$name did not answer $url within 20 s"
}
