#!/usr/bin/env bash
# bench/store.sh: durable submissions a second with `--store sqlite:PATH`, against the same build with
# `--store none`, both running side by side and measured in alternating rounds: CONNECTIONS clients
# posting the valid event submission as JSON. Every answer must be a 2xx, and at the end the database
# must hold as many submissions as were answered: a figure for submissions kept, not merely answered.
#
#   bench/store.sh                      # a release build
#   FORMWRIGHT_BIN=/tmp/formwright bench/store.sh
#
# Knobs: ROUNDS (5), DURATION (5 s a round), CONNECTIONS (32), THREADS (nproc), FORMWRIGHT_BIN. Needs
# wrk, curl and python3 (its sqlite3 module counts the rows).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

rounds=${ROUNDS:-5}
duration=${DURATION:-5}
connections=${CONNECTIONS:-32}
threads=${THREADS:-$(nproc)}
bin=${FORMWRIGHT_BIN:-}
if [[ -z $bin ]]; then
    scripts/build-release --product formwright >&2
    bin="$(swift build -c release --show-bin-path)/formwright"
fi

work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap cleanup EXIT

printf '%s' '{"title":"Team lunch","starts":"2026-11-23T12:00","ends":"2026-11-23T13:00","alert":"15m","second-alert":"5m","guests":8}' \
    >"$work/event.json"
database="$work/store/formwright.db"

# start NAME PORT ARGS...: a server, waited for until /healthz answers.
start() {
    local name=$1 port=$2
    shift 2
    "$bin" serve --host 127.0.0.1 --port "$port" --threads "$threads" --no-access-log "$@" >"$work/$name.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 100); do
        curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && return
        sleep 0.1
    done
    echo "$name did not start: $(cat "$work/$name.log")" >&2
    exit 1
}
start none 18471 --store none
start sqlite 18472 --store "sqlite:$database"

# A probe of each: a 200, and the id of the kept one.
for port in 18471 18472; do
    answer=$(curl -sf -H 'Content-Type: application/json' -H 'Accept: application/json' \
        --data-binary @"$work/event.json" "http://127.0.0.1:$port/forms/event")
    echo "probe :$port ${answer:0:60}…" >&2
done

# round NAME PORT: requests a second and the requests answered, from one wrk run; a non-2xx fails.
round() {
    local output
    output=$(SUBMIT_BODY="$work/event.json" SUBMIT_HEADERS="Content-Type: application/json" \
        wrk -t1 -c"$connections" -d"${duration}s" -s bench/post.lua "http://127.0.0.1:$2/forms/event")
    if grep -q "Non-2xx" <<<"$output"; then
        echo "$1: $(grep Non-2xx <<<"$output")" >&2
        exit 1
    fi
    echo "$(awk '/Requests\/sec/ {print $2}' <<<"$output") $(awk '/requests in/ {print $1}' <<<"$output")"
}

none=()
sqlite=()
answered=1  # the probe
for ((r = 1; r <= rounds; r++)); do
    order=(none sqlite)
    ((r % 2 == 0)) && order=(sqlite none)
    for name in "${order[@]}"; do
        if [[ $name == none ]]; then
            read -r rate _ < <(round none 18471)
            none+=("$rate")
        else
            read -r rate count < <(round sqlite 18472)
            sqlite+=("$rate")
            answered=$((answered + count))
        fi
        echo "round $r $name: $rate req/s" >&2
    done
done

kept=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from submissions').fetchone()[0])" "$database")
python3 - "$kept" "$answered" "${none[*]}" "${sqlite[*]}" <<'EOF'
import statistics, sys
kept, answered = int(sys.argv[1]), int(sys.argv[2])
none = [float(x) for x in sys.argv[3].split()]
sqlite = [float(x) for x in sys.argv[4].split()]
n, s = statistics.median(none), statistics.median(sqlite)
print(f"store: sqlite {s:,.0f} durable submissions/s, none {n:,.0f}/s (medians of {len(none)} rounds): {100 * s / n:.1f}%")
print(f"store: {kept:,} kept, {answered:,} answered as kept{'' if kept >= answered else ' — MISSING SUBMISSIONS'}")
sys.exit(0 if kept >= answered else 1)
EOF
