#!/usr/bin/env bash
# bench/export.sh: an export of ROWS stored submissions (1,000,000) as CSV and as JSON lines through
# GET /api/forms/event/submissions.csv / .jsonl, from SQLite and from PostgreSQL (a throwaway server
# from scripts/test-postgres.sh): rows a second, and how much the server's resident memory grew while
# it streamed them (sampled every 0.1 s from /proc). Targets: 100,000 rows a second, under 64 MiB.
#
#   bench/export.sh                       # a release build
#   FORMWRIGHT_BIN=/tmp/formwright ROWS=200000 bench/export.sh
#
# The rows are copies of one real submission (posted to the server first, so their payloads are what
# it keeps), each under an id of its own, loaded straight into the database. POSTGRES=off leaves
# PostgreSQL out. Needs curl, python3 and, for PostgreSQL, Debian's postgresql.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

rows=${ROWS:-1000000}
bin=${FORMWRIGHT_BIN:-}
if [[ -z $bin ]]; then
    scripts/build-release --product formwright >&2
    bin="$(swift build -c release --show-bin-path)/formwright"
fi

work=$(mktemp -d)
chmod 755 "$work" # the postgres user makes its cluster in here
pid=
cleanup() {
    [[ -n $pid ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
    scripts/test-postgres.sh stop "$work/postgres" || true
    rm -rf "$work"
}
trap cleanup EXIT
port=18481

# serve STORE: a server on STORE, waited for until /healthz answers; its pid in $pid.
serve() {
    "$bin" serve --host 127.0.0.1 --port "$port" --no-access-log --store "$1" >"$work/serve.log" 2>&1 &
    pid=$!
    for _ in $(seq 100); do
        curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && return
        sleep 0.1
    done
    echo "the server did not start: $(cat "$work/serve.log")" >&2
    exit 1
}
stop() {
    kill "$pid" && wait "$pid" 2>/dev/null || true
    pid=
}

# rows.tsv: ROWS copies of one kept submission's columns, under new ids in id order (tab-separated,
# as PostgreSQL's COPY reads them; the payloads hold no tab, newline or backslash).
make_rows() {
    python3 - "$rows" "$1" >"$work/rows.tsv" <<'PY'
import json, os, sys
count, source = int(sys.argv[1]), json.loads(sys.argv[2])
alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
def encode(value):
    return "".join(alphabet[(value >> (5 * (25 - i))) & 31] for i in range(26))
start = 1_764_000_000_000
out = sys.stdout
for n in range(count):
    value = (start + n) << 80 | int.from_bytes(os.urandom(10), "big")
    out.write("\t".join([encode(value), "event", source["received"], source["http"], source["form"]]) + "\n")
PY
}

# measure NAME STORE FORMAT: one export, timed, the server's memory sampled meanwhile.
measure() {
    local name=$1 store=$2 format=$3 key before peak begun ended lines
    key=$("$bin" keys create "export-$format-$RANDOM" --scope export --store "$store" | tail -1)
    serve "$store"
    before=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
    (
        peak=$before
        while kill -0 "$pid" 2>/dev/null && [[ ! -f $work/done ]]; do
            now=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
            ((now > peak)) && peak=$now
            sleep 0.1
        done
        echo "$peak" >"$work/peak"
    ) &
    local sampler=$!
    rm -f "$work/done"
    begun=$(date +%s.%N)
    curl -sf -H "Authorization: Bearer $key" -o "$work/export" "http://127.0.0.1:$port/api/forms/event/submissions.$format"
    ended=$(date +%s.%N)
    touch "$work/done"
    wait "$sampler"
    peak=$(cat "$work/peak")
    lines=$(wc -l <"$work/export")
    stop
    python3 - "$name" "$format" "$rows" "$lines" "$begun" "$ended" "$before" "$peak" <<'PY'
import sys
name, fmt, rows, lines = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
seconds = float(sys.argv[6]) - float(sys.argv[5])
growth = (int(sys.argv[8]) - int(sys.argv[7])) / 1024
expected = rows + (1 if fmt == "csv" else 0)
print(f"export: {name} {fmt}: {rows:,} rows in {seconds:.2f} s, {rows / seconds:,.0f} rows/s; "
      f"resident memory grew {growth:.1f} MiB{'' if lines == expected else f' — {lines:,} LINES, {expected:,} EXPECTED'}")
sys.exit(0 if lines == expected else 1)
PY
}

# One real submission, kept by the server, whose columns every row copies.
database=$work/formwright.db
serve "sqlite:$database"
curl -sf -H 'Content-Type: application/json' -H 'Accept: application/json' \
    -d '{"title":"Team lunch","starts":"2026-11-23T12:00","ends":"2026-11-23T13:00","alert":"15m","guests":8}' \
    "http://127.0.0.1:$port/forms/event" >/dev/null
stop
source=$(python3 -c '
import json, sqlite3, sys
row = sqlite3.connect(sys.argv[1]).execute("select received, http_parameters, form_values from submissions").fetchone()
print(json.dumps({"received": row[0], "http": row[1], "form": row[2]}))' "$database")
make_rows "$source"
python3 - "$database" "$work/rows.tsv" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("delete from submissions")
with open(sys.argv[2]) as rows:
    db.executemany("insert into submissions (id, form, received, http_parameters, form_values) values (?, ?, ?, ?, ?)",
                   (line.rstrip("\n").split("\t") for line in rows))
db.commit()
PY
measure sqlite "sqlite:$database" csv
measure sqlite "sqlite:$database" jsonl

if [[ ${POSTGRES:-on} != off ]]; then
    url=$(scripts/test-postgres.sh start "$work/postgres")
    serve "$url" # migrates the new database
    stop
    psql "$url" -q -c "\\copy submissions (id, form, received, http_parameters, form_values) from '$work/rows.tsv'"
    measure postgres "$url" csv
    measure postgres "$url" jsonl
fi
