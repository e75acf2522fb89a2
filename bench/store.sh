#!/usr/bin/env bash
# bench/store.sh: durable submissions a second with `--store sqlite:PATH` and `--store postgres://…`
# (a throwaway server from scripts/test-postgres.sh), against the same build with `--store none`, all
# running side by side and measured in rotating rounds: CONNECTIONS clients posting the valid event
# submission as JSON. Every answer must be a 2xx, and at the end each database must hold as many
# submissions as were answered: a figure for submissions kept, not merely answered.
#
#   bench/store.sh                      # a release build
#   FORMWRIGHT_BIN=/tmp/formwright bench/store.sh
#
# Knobs: ROUNDS (5), DURATION (5 s a round), CONNECTIONS (32), THREADS (nproc), FORMWRIGHT_BIN,
# POSTGRES=off to leave PostgreSQL out. Needs wrk, curl, python3 (its sqlite3 module counts rows) and,
# for PostgreSQL, Debian's postgresql (psql counts rows).
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
chmod 755 "$work"  # the postgres user makes its cluster in here
pids=()
cleanup() {
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    scripts/test-postgres.sh stop "$work/postgres" || true
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
names=(none sqlite)
declare -A ports=([none]=18471 [sqlite]=18472 [postgres]=18473)
start none 18471 --store none
start sqlite 18472 --store "sqlite:$database"
if [[ ${POSTGRES:-on} != off ]]; then
    postgres_url=$(scripts/test-postgres.sh start "$work/postgres")
    start postgres 18473 --store "$postgres_url"
    names+=(postgres)
fi

# A probe of each: a 200, and the id of the kept one.
for name in "${names[@]}"; do
    port=${ports[$name]}
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

declare -A rates answered
for name in "${names[@]}"; do answered[$name]=1; done  # the probe
for ((r = 1; r <= rounds; r++)); do
    # Each round starts with the next server, so none always runs first or last.
    order=("${names[@]:r % ${#names[@]}}" "${names[@]:0:r % ${#names[@]}}")
    for name in "${order[@]}"; do
        read -r rate count < <(round "$name" "${ports[$name]}")
        rates[$name]+="$rate "
        answered[$name]=$((answered[$name] + count))
        echo "round $r $name: $rate req/s" >&2
    done
done

kept_sqlite=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from submissions').fetchone()[0])" "$database")
kept_postgres=0
[[ -n ${postgres_url:-} ]] && kept_postgres=$(psql "$postgres_url" -tA -c "select count(*) from submissions")
python3 - "${rates[none]}" "sqlite" "${rates[sqlite]}" "$kept_sqlite" "${answered[sqlite]}" \
    ${postgres_url:+postgres "${rates[postgres]}" "$kept_postgres" "${answered[postgres]}"} <<'EOF'
import statistics, sys
none = statistics.median(float(x) for x in sys.argv[1].split())
print(f"store: none {none:,.0f} submissions/s (median of {len(sys.argv[1].split())} rounds)")
missing = False
for at in range(2, len(sys.argv), 4):
    name, rates, kept, answered = sys.argv[at], sys.argv[at + 1], int(sys.argv[at + 2]), int(sys.argv[at + 3])
    rate = statistics.median(float(x) for x in rates.split())
    print(f"store: {name} {rate:,.0f} durable submissions/s: {100 * rate / none:.1f}% of none")
    print(f"store: {name} {kept:,} kept, {answered:,} answered as kept{'' if kept >= answered else ' — MISSING SUBMISSIONS'}")
    missing = missing or kept < answered
sys.exit(1 if missing else 0)
EOF
